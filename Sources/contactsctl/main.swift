import BaseDirectories
import Glibc
import MailCompletion

// contactsctl: `query-email`, which mail clients run at every completion, answered here by a
// program of the C library and the JSON reader alone (it starts in a fraction of the full
// client's time); every other command line, and any query this cannot answer, goes to the
// full client, `contactsctl-full`, with the same arguments.

signal(SIGPIPE, SIG_IGN)
// (No dictionary, set or conditional conformance on the way: the first in a process has the
// runtime scan every conformance of the program.)
let arguments = ProcessEnvironment.arguments()
if let command = QueryEmailCommandLine(arguments.dropFirst()) {
    let socket = command.socket ?? XDGPaths(variable: ProcessEnvironment.variable).clientSocket
    if let result = OneRequest.result(socket: socket, method: QueryEmail.method, params: command.query.params),
        let addresses = result["addresses"]?.arrayValue
    {
        let (bytes, status) = command.query.output(addresses)
        // A reader that went away (`| head`) is no error of ours.
        _ = StandardOutput.write(bytes)
        exit(status)
    }
}
FullClient.exec(arguments)
