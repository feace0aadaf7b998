/// What a value on the command line completes to.
public enum CompletionKind: Sendable, Equatable {
    case none
    case choices([String])
    case files(extensions: [String])
    case contacts
    case groups
    /// The names of deleted contacts.
    case trash
    /// The names of sync accounts.
    case accounts
    /// The names of the devices the network face lets in.
    case devices
}

/// One option, declared once; parsing, help and completion all read it.
public struct OptionSpec: Sendable {
    public var name: String
    public var short: Character?
    /// Nil for a flag; the placeholder shown in help for an option that takes a value.
    public var valueName: String?
    public var repeats: Bool
    public var help: String
    public var completion: CompletionKind

    public init(
        _ name: String, short: Character? = nil, value: String? = nil, repeats: Bool = false, help: String,
        completion: CompletionKind = .none
    ) {
        self.name = name
        self.short = short
        self.valueName = value
        self.repeats = repeats
        self.help = help
        self.completion = completion
    }

    public var takesValue: Bool { valueName != nil }
}

/// One positional argument.
public struct ArgumentSpec: Sendable {
    public var name: String
    public var optional: Bool
    public var variadic: Bool
    public var help: String
    public var completion: CompletionKind

    public init(_ name: String, optional: Bool = false, variadic: Bool = false, help: String, completion: CompletionKind = .none) {
        self.name = name
        self.optional = optional
        self.variadic = variadic
        self.help = help
        self.completion = completion
    }
}

/// A verb of `contactsctl`: its arguments, options, sub-verbs and what it runs.
public struct CommandSpec: Sendable {
    public typealias Run = @Sendable (inout Invocation) throws -> Int32

    public var name: String
    /// Other names the verb answers to (`delete` and `remove` for `rm`); help and completion
    /// show them, and a misspelling is matched against them too.
    public var aliases: [String]
    public var summary: String
    public var arguments: [ArgumentSpec]
    public var options: [OptionSpec]
    public var subcommands: [CommandSpec]
    public var hidden: Bool
    public var run: Run?

    public init(
        _ name: String, aliases: [String] = [], summary: String, arguments: [ArgumentSpec] = [], options: [OptionSpec] = [],
        subcommands: [CommandSpec] = [], hidden: Bool = false, run: Run? = nil
    ) {
        self.name = name
        self.aliases = aliases
        self.summary = summary
        self.arguments = arguments
        self.options = options
        self.subcommands = subcommands
        self.hidden = hidden
        self.run = run
    }

    public func subcommand(_ name: String) -> CommandSpec? { subcommands.first { $0.name == name || $0.aliases.contains(name) } }

    /// Every name a visible sub-verb answers to, each with the verb it names.
    public var visibleNames: [(name: String, command: CommandSpec)] {
        subcommands.filter { !$0.hidden }.flatMap { sub in ([sub.name] + sub.aliases).map { (name: $0, command: sub) } }
    }
}

/// A usage error: exit status 64 with a message and a pointer to help.
public struct UsageError: Error, CustomStringConvertible {
    public var message: String
    public var command: String
    public var description: String { message }
}

/// A failure with a message for stderr and exit status 1.
public struct CommandFailure: Error, CustomStringConvertible {
    public var message: String
    public var status: Int32 = 1
    public init(_ message: String, status: Int32 = 1) {
        self.message = message
        self.status = status
    }
    public var description: String { message }
}
