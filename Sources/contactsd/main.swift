import ContactsDaemon
import Foundation

switch Result(catching: { try DaemonOptions.parse(Array(CommandLine.arguments.dropFirst())) }) {
case .success(.help):
    print(DaemonOptions.usage)
case .success(.version):
    print("contactsd \(contactsdVersion)")
case .success(.run(let options)):
    exit(Daemon(options: options).run())
case .failure(let error):
    FileHandle.standardError.write(Data("contactsd: \(error)\nTry 'contactsd --help'.\n".utf8))
    exit(64)
}
