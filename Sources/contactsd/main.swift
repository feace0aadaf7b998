import ContactsAPI
import ContactsDaemon
import Foundation

// jemalloc is left out of a build under a sanitizer (scripts/test-sanitizers.sh says so):
// the sanitizer's allocator serves malloc there, and memory libphonenumber's libraries take
// from jemalloc directly would reach the sanitizer's free.
#if !CONTACTSD_SANITIZED
    import CJemalloc
#endif

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("contactsd: \(message)\n".utf8))
    exit(status)
}

#if !CONTACTSD_SANITIZED
    // jemalloc, linked into this executable, serves every malloc; the daemon steers it.
    Memory.use { mallctl($0, $1, $2, $3, $4) }
#endif

switch Result(catching: { try DaemonOptions.parse(Array(CommandLine.arguments.dropFirst())) }) {
case .success(.help):
    print(DaemonOptions.usage)
case .success(.version):
    print("contactsd \(ContactsAPI.version)")
case .success(.run(let options)):
    do {
        exit(try Daemon(options: options).run())
    } catch {
        fail("\(error)", status: 78)  // EX_CONFIG: the configuration file is wrong
    }
case .failure(let error):
    fail("\(error)\nTry 'contactsd --help'.", status: 64)
}
