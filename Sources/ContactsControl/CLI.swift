import BaseDirectories
import ContactsAPI
import ContactsSupport
import Foundation
import JSONRPC

/// Runs `contactsctl` with the given arguments; returns the exit status.
public enum ContactsCtl {
    public static func main(_ args: [String], environment: [String: String] = ContactsCtl.environment()) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        if args == ["--version"] || args == ["version"] {
            print("contactsctl \(ContactsAPI.version)")
            return 0
        }
        let socketDefault = XDGPaths(environment: environment).clientSocket
        let parsed: Parser.Result
        do {
            parsed = try Parser.parse(args, root: CommandTree.root, socketDefault: socketDefault, environment: environment) {
                Output(environment: environment, forceNoColor: $0)
            }
        } catch let e as UsageError {
            let out = Output(environment: environment)
            out.error("\(e.message)\nTry '\(e.command) --help'.")
            return 64
        } catch {
            return 64
        }
        var inv = parsed.invocation
        guard let run = parsed.command.run, !parsed.wantsHelp else {
            inv.output.line(Help.text(for: parsed.command, path: inv.path))
            inv.output.flush()
            return parsed.wantsHelp ? 0 : 64
        }
        let status: Int32
        do {
            status = try run(&inv)
        } catch let e as UsageError {
            inv.output.error("\(e.message)\nTry '\(e.command) --help'.")
            status = 64
        } catch let e as CommandFailure {
            inv.output.error(e.message)
            status = e.status
        } catch let e as RPCError {
            inv.output.error(e.message)
            status = 1
        } catch let e as RPCClientError {
            switch e {
            case .unreachable:
                inv.output.error("\(e)\nIs it running? Start it with 'systemctl --user start contactsd.socket' or run 'contactsd'.")
            case .protocolFailure:
                inv.output.error(e.description)
            }
            status = 69
        } catch {
            inv.output.error("\(error)")
            status = 1
        }
        inv.output.flush()
        return status
    }

    /// The process's environment (`ProcessEnvironment`).
    public static func environment() -> [String: String] { ProcessEnvironment.current() }
}
