import XCTest

@testable import ContactsControl

/// The command line read against the declared command tree, with no daemon.
final class ParserTests: XCTestCase {
    func parse(_ args: [String]) throws -> Parser.Result {
        try Parser.parse(args, root: CommandTree.root, socketDefault: "/run/user/1/contactsd.sock", environment: [:]) {
            Output(environment: [:], forceNoColor: $0)
        }
    }

    func usageError(_ args: [String]) -> UsageError? {
        do {
            _ = try parse(args)
            return nil
        } catch let e as UsageError {
            return e
        } catch {
            XCTFail("\(error)")
            return nil
        }
    }

    func testACommandItsOptionsAndArgumentsAreRead() throws {
        let r = try parse(["search", "--group", "Work", "-f", "kate", "--json", "--socket=/tmp/s"])
        XCTAssertEqual(r.command.name, "search")
        XCTAssertEqual(r.invocation.path, ["search"])
        XCTAssertEqual(r.invocation.arguments, ["kate"])
        XCTAssertEqual(r.invocation.options["group"], ["Work"])
        XCTAssertTrue(r.invocation.flags.contains("favorites"))
        XCTAssertTrue(r.invocation.json)
        XCTAssertEqual(r.invocation.socketPath, "/tmp/s")
        XCTAssertFalse(r.wantsHelp)
    }

    func testNestedCommandsRepeatedOptionsAndTheEndOfOptions() throws {
        let r = try parse(["add", "Kate Bell", "-p", "mobile:555", "--phone", "556"])
        XCTAssertEqual(r.invocation.path, ["add"])
        XCTAssertEqual(r.invocation.options["phone"], ["mobile:555", "556"])
        XCTAssertEqual(try parse(["add", "-p", "1", "--", "-Dash"]).invocation.arguments, ["-Dash"], "a name that starts with a dash")
        XCTAssertEqual(try parse(["group", "rename", "Famly", "Family"]).invocation.path, ["group", "rename"])
        XCTAssertEqual(try parse([]).invocation.socketPath, "/run/user/1/contactsd.sock", "the default socket")
    }

    func testMistakesSayWhatIsWrongAndSuggestTheNearestWord() {
        XCTAssertEqual(usageError(["serch", "kate"])?.message, "unknown command 'serch'; did you mean 'search'?")
        XCTAssertEqual(usageError(["search", "--favorits"])?.message, "unknown option '--favorits'; did you mean '--favorites'?")
        XCTAssertEqual(usageError(["search", "--group"])?.message, "--group needs a value (GROUP)")
        XCTAssertEqual(usageError(["show"])?.message, "missing ID")
        XCTAssertEqual(usageError(["search", "--json=yes"])?.message, "--json takes no value")
        XCTAssertEqual(usageError(["group", "rename", "a"])?.command, "contactsctl group rename")
    }

    func testDeleteAndRemoveAreRmAndNothingProposesTheVerbThatUndoesIt() throws {
        for verb in ["delete", "remove", "rm"] {
            let r = try parse([verb, "Kate Bell"])
            XCTAssertEqual(r.command.name, "rm", verb)
            XCTAssertEqual(r.invocation.arguments, ["Kate Bell"])
        }
        XCTAssertEqual(usageError(["delet", "kate"])?.message, "unknown command 'delet'; did you mean 'delete'?")
        let tree = CommandSpec(
            "t", summary: "",
            subcommands: [CommandSpec("undelete", summary: ""), CommandSpec("unassign", summary: ""), CommandSpec("list", summary: "")])
        XCTAssertEqual(Parser.suggestion("delete", tree), "", "the reverse of what was asked is never proposed")
        XCTAssertEqual(Parser.suggestion("asign", tree), "")
        XCTAssertEqual(Parser.suggestion("undelet", tree), "; did you mean 'undelete'?")
        XCTAssertEqual(Parser.suggestion("lst", tree), "; did you mean 'list'?")
        let help = Help.text(for: try parse(["rm", "--help"]).command, path: ["rm"])
        XCTAssertTrue(help.contains("Also: contactsctl delete, contactsctl remove."), help)
        XCTAssertTrue(Help.text(for: CommandTree.root, path: []).contains("rm, delete, remove"))
        for script in [CompletionScripts.bash(CommandTree.root), CompletionScripts.zsh(CommandTree.root)] {
            XCTAssertTrue(script.contains("\" delete\")"), "arguments after an alias complete as after the verb")
        }
        XCTAssertTrue(CompletionScripts.fish(CommandTree.root).contains("-a delete"))
    }

    func testHelpIsAskedForAndNeedsNoArguments() throws {
        let r = try parse(["show", "--help"])
        XCTAssertTrue(r.wantsHelp)
        let text = Help.text(for: r.command, path: r.invocation.path)
        XCTAssertTrue(text.contains("contactsctl show"), text)
        XCTAssertTrue(Help.text(for: CommandTree.root, path: []).contains("search"))
    }

    func testEditDistance() {
        XCTAssertEqual(Parser.distance("search", "search"), 0)
        XCTAssertEqual(Parser.distance("serch", "search"), 1)
        XCTAssertEqual(Parser.distance("", "abc"), 3)
        XCTAssertEqual(Parser.distance("kitten", "sitting"), 3)
    }
}

final class TableTests: XCTestCase {
    func testWideCharactersTakeTwoColumnsAndLinesAreCutToTheWidth() {
        XCTAssertEqual(DisplayWidth.of("Kate"), 4)
        XCTAssertEqual(DisplayWidth.of("张三"), 4)
        XCTAssertEqual(DisplayWidth.of("Zoë"), 3)
        let cut = DisplayWidth.truncate("张三李四王五", to: 7)
        XCTAssertLessThanOrEqual(DisplayWidth.of(cut), 7)
        XCTAssertEqual(cut, "张三李…")
    }

    func testAWideTableGivesUpSpaceInItsShrinkableColumns() {
        var t = Table(headers: ["NAME", "EMAIL"], shrinkable: [1])
        t.add(["Kate Bell", "kate-bell-with-a-very-long-address@example.com"])
        let lines = t.render(width: 30) { $0 }
        XCTAssertTrue(lines.allSatisfy { DisplayWidth.of($0) <= 30 }, "\(lines)")
        XCTAssertTrue(lines[1].hasPrefix("Kate Bell"), "\(lines)")
        XCTAssertTrue(lines[1].hasSuffix("…"), "\(lines)")
        XCTAssertEqual(t.render(width: nil) { $0 }[1], "Kate Bell  kate-bell-with-a-very-long-address@example.com")
    }
}
