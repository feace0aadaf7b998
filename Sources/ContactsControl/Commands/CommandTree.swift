import ContactsAPI

/// The whole of `contactsctl`, declared once.
public enum CommandTree {
    /// A device's QR code as an image, and whether it holds the password.
    static let qrOptions = [
        OptionSpec("qr", value: "FILE.png", help: "also write the QR code as a PNG image", completion: .files(extensions: ["png"])),
        OptionSpec("qr-with-password", help: "put the password into the QR code too (anyone who sees the code can sign in)"),
    ]
    static let contactArg = ArgumentSpec("ID", help: "a contact's id, or a unique name or part of one", completion: .contacts)
    static let groupFilter = OptionSpec("group", short: "g", value: "GROUP", help: "only members of GROUP", completion: .groups)
    static let favoritesFilter = OptionSpec("favorites", short: "f", help: "only favorites")
    static let collectedFilter = OptionSpec("collected", help: "also the addresses collected from mail")
    static let byMail = OptionSpec("by-mail", help: "the people written to most, and most lately, first")
    static let accountFilter = OptionSpec(
        "account", value: "NAME", help: "only the contacts of this sync account ('local': of no account)", completion: .accounts)

    /// The options that set a field (`add`, `edit`), one a declared field that has one, and
    /// `--note-file` beside `--note`.
    static let fieldOptions: [OptionSpec] = FieldDeclaration.all.flatMap { f -> [OptionSpec] in
        guard let option = f.option else { return [] }
        let set = OptionSpec(
            option, short: f.short, value: f.placeholder, repeats: f.isList, help: f.optionHelp ?? f.help,
            completion: f.kind == .groups ? .groups : .none)
        guard f.kind == .longText else { return [set] }
        return [
            set,
            OptionSpec(
                "\(option)-file", value: "FILE", help: "\(f.help) read from FILE ('-': standard input)", completion: .files(extensions: [])),
        ]
    }

    /// `edit`'s options that take a value away from a list.
    static let removeOptions: [OptionSpec] = FieldDeclaration.all.compactMap { f in
        f.removal.map {
            OptionSpec($0.option, value: f.placeholder, repeats: true, help: $0.help, completion: f.kind == .groups ? .groups : .none)
        }
    }

    /// The fields `edit --clear` empties, by their API names.
    static let clearable = FieldDeclaration.all.filter(\.isClearable).map(\.key)

    public static let root = CommandSpec(
        "contactsctl", summary: "Talk to contactsd, the personal contacts service.",
        subcommands: [
            CommandSpec(
                "list", summary: "List contacts in name order.",
                options: [
                    favoritesFilter, groupFilter, accountFilter, collectedFilter, byMail,
                    OptionSpec("limit", short: "n", value: "N", help: "at most N contacts"),
                ],
                run: ContactCommands.list),
            CommandSpec(
                "search", summary: "Find contacts by name, email, phone or organization.",
                arguments: [ArgumentSpec("TEXT", help: "what to look for (case, accents and phone formatting are ignored)")],
                options: [
                    favoritesFilter, groupFilter, accountFilter, collectedFilter, byMail,
                    OptionSpec("limit", short: "n", value: "N", help: "at most N contacts"),
                ],
                run: ContactCommands.search),
            CommandSpec("show", summary: "Show everything about one contact.", arguments: [contactArg], run: ContactCommands.show),
            CommandSpec(
                "birthdays", summary: "The birthdays and dates of the coming days, with ages and years.",
                options: [
                    OptionSpec("days", short: "d", value: "N", help: "this many days from today (default 30, at most 366)"),
                    OptionSpec("from", value: "DATE", help: "from this day, YYYY-MM-DD, instead of today"),
                ],
                run: DateCommands.birthdays),
            CommandSpec(
                "add", summary: "Add a contact; with no NAME, fill in a form in $VISUAL or $EDITOR.",
                arguments: [ArgumentSpec("NAME", optional: true, help: "the full name")],
                options: fieldOptions + [
                    OptionSpec("favorite", help: "mark as a favorite"),
                    OptionSpec(
                        "account", value: "NAME", help: "the sync account it goes to ('local': none; default: defaultAccount)",
                        completion: .accounts),
                ], run: ContactCommands.add),
            CommandSpec(
                "edit",
                summary:
                    "Change a contact: a list option (--phone, --email, --group...) adds a value, --remove-... takes one away, --clear FIELD empties a list first; other options replace the old value; with none, edit it all in $VISUAL or $EDITOR.",
                arguments: [contactArg],
                options: [OptionSpec("name", value: "NAME", help: "the new full name")] + fieldOptions + removeOptions
                    + [
                        OptionSpec(
                            "clear", value: "FIELD", repeats: true,
                            help: "empty a field (\(clearable.joined(separator: ", ")))",
                            completion: .choices(clearable))
                    ],
                run: ContactCommands.edit),
            CommandSpec(
                "rm", aliases: ["delete", "remove"], summary: "Delete contacts.",
                arguments: [ArgumentSpec("ID", variadic: true, help: "contacts to delete", completion: .contacts)],
                run: ContactCommands.remove),
            CommandSpec(
                "move", summary: "Move contacts to a sync account, or to this machine alone ('local').",
                arguments: [ArgumentSpec("ID", variadic: true, help: "contacts to move", completion: .contacts)],
                options: [
                    OptionSpec("to", value: "ACCOUNT", help: "the account to move them to, or 'local'", completion: .accounts)
                ],
                run: SyncCommands.move),
            CommandSpec(
                "duplicates", summary: "List contacts that are likely one person: the score, the names and what they share.",
                options: [
                    OptionSpec("min-score", value: "SCORE", help: "leave out groups below SCORE, 0 to 1 (default 0.5)"),
                    OptionSpec("limit", short: "n", value: "N", help: "at most N groups"),
                    OptionSpec("collected", help: "compare the addresses collected from mail too"),
                ],
                run: DuplicateCommands.list),
            CommandSpec(
                "merge", summary: "Merge contacts into one without losing a value; the others go to the trash.",
                arguments: [ArgumentSpec("ID", optional: true, variadic: true, help: "the contacts to merge", completion: .contacts)],
                options: [
                    OptionSpec("into", value: "ID", help: "the contact that stays (default: the most complete)", completion: .contacts),
                    OptionSpec("dry-run", short: "n", help: "print the merged contact and change nothing"),
                    OptionSpec("auto", help: "merge every group of duplicates that are identical once normalised"),
                ],
                run: DuplicateCommands.merge),
            CommandSpec(
                "not-duplicates", summary: "Say that contacts are different people: they are not proposed as duplicates again.",
                arguments: [ArgumentSpec("ID", variadic: true, help: "two or more contacts", completion: .contacts)],
                run: DuplicateCommands.notDuplicates),
            CommandSpec(
                "history", summary: "List a contact's changes: revision, when, by what and which fields.", arguments: [contactArg],
                run: HistoryCommands.history),
            CommandSpec(
                "revert", summary: "Make a contact what it was at REVISION again (as a new revision).",
                arguments: [contactArg, ArgumentSpec("REVISION", help: "the revision to go back to, from 'history'")],
                run: HistoryCommands.revert),
            CommandSpec(
                "changes", summary: "List recent operations, the latest first: id, when, by what, what.", run: HistoryCommands.changes),
            CommandSpec(
                "undo",
                summary:
                    "Undo an operation as a whole: the latest not undone yet when none is given, so that undo again steps back further.",
                arguments: [ArgumentSpec("OPERATION", optional: true, help: "an operation's id from 'changes'")],
                options: [OptionSpec("force", help: "undo even over later changes of the same contacts")], run: HistoryCommands.undo),
            CommandSpec(
                "redo", summary: "Do again what the latest undo took back; redo again goes further forward.",
                options: [OptionSpec("force", help: "redo even over later changes of the same contacts")], run: HistoryCommands.redo),
            CommandSpec(
                "trash", summary: "List deleted contacts (those matching TEXT), which undelete brings back.",
                arguments: [ArgumentSpec("TEXT", optional: true, help: "what to look for")],
                subcommands: [
                    CommandSpec(
                        "empty", summary: "Remove everything in the trash for good.",
                        options: [OptionSpec("yes", short: "y", help: "do not ask first")], run: TrashCommands.empty)
                ],
                run: TrashCommands.list),
            CommandSpec(
                "undelete", summary: "Bring deleted contacts back as they were.",
                arguments: [ArgumentSpec("ID", variadic: true, help: "deleted contacts: ids, or names from the trash", completion: .trash)],
                run: TrashCommands.undelete),
            CommandSpec(
                "purge", summary: "Remove deleted contacts for good.",
                arguments: [ArgumentSpec("ID", variadic: true, help: "deleted contacts: ids, or names from the trash", completion: .trash)],
                options: [OptionSpec("yes", short: "y", help: "do not ask first")],
                run: TrashCommands.purge),
            CommandSpec(
                "account", summary: "Manage sync accounts (CardDAV address books).",
                subcommands: [
                    CommandSpec(
                        "add",
                        summary:
                            "Add an account: find the address book behind URL, sign in, and keep it in sync; or keep a vdir (--vdir DIR) or a Google account (--google) in sync.",
                        arguments: [
                            ArgumentSpec("NAME", help: "the account's name"),
                            ArgumentSpec("URL", optional: true, help: "the address book, the server, a host or an email address"),
                        ],
                        options: [
                            OptionSpec(
                                "vdir", value: "DIR", help: "instead of URL: a directory of .vcf files, one a contact (khard, vdirsyncer)",
                                completion: .files(extensions: [])),
                            OptionSpec(
                                "google", help: "instead of URL: a Google account, through the People API (labels and starred kept)"),
                            OptionSpec("people-url", value: "URL", help: "with --google: the People API's root, for a server standing in"),
                            OptionSpec(
                                "client-id", value: "ID",
                                help: "with --google: your own OAuth client (a Desktop app) to sign in with, in a browser"),
                            OptionSpec("client-secret", value: "SECRET", help: "with --client-id: the client's secret, if it has one"),
                            OptionSpec(
                                "goa-account", value: "EMAIL",
                                help:
                                    "with --google: which Google account of GNOME Online Accounts (used when neither --client-id nor --token-command is given)"
                            ),
                            OptionSpec(
                                "auth-url", value: "URL", help: "with --client-id: the authorization endpoint (Google's by default)"),
                            OptionSpec("token-url", value: "URL", help: "with --client-id: the token endpoint (Google's by default)"),
                            OptionSpec("user", value: "USER", help: "the user to sign in as"),
                            OptionSpec("password-command", value: "CMD", help: "a command that prints the password (secret-tool, pass)"),
                            OptionSpec("token-command", value: "CMD", help: "a command that prints a bearer token (OAuth 2)"),
                            OptionSpec("address-book", value: "NAME", help: "which book, when the server has several"),
                            OptionSpec(
                                "ca-file", value: "FILE", help: "CA certificates (PEM) to trust for this server",
                                completion: .files(extensions: ["pem", "crt"])),
                            OptionSpec("interval", value: "SECONDS", help: "seconds between syncs (default 900)"),
                            OptionSpec("read-only", help: "only download"),
                            OptionSpec("adopt-local", help: "move this machine's contacts into the account"),
                        ],
                        run: SyncCommands.add),
                    CommandSpec("list", summary: "List the accounts with their last sync.", run: SyncCommands.list),
                    CommandSpec(
                        "login", summary: "Sign a Google account in again, in a browser (after Google stopped accepting its sign-in).",
                        arguments: [ArgumentSpec("NAME", help: "the account", completion: .accounts)], run: SyncCommands.login),
                    CommandSpec(
                        "rm", summary: "Remove an account (its contacts stay here unless --delete-contacts).",
                        arguments: [ArgumentSpec("NAME", help: "the account", completion: .accounts)],
                        options: [OptionSpec("delete-contacts", help: "move its contacts to the trash")], run: SyncCommands.remove),
                ]),
            CommandSpec(
                "sync", summary: "Sync an account (every one when none is named) now.",
                arguments: [ArgumentSpec("NAME", optional: true, help: "the account", completion: .accounts)],
                subcommands: [
                    CommandSpec("status", summary: "How each account's syncs went.", run: SyncCommands.status),
                    CommandSpec(
                        "confirm", summary: "Carry out the deletions a sync held back.",
                        arguments: [ArgumentSpec("NAME", help: "the account", completion: .accounts)],
                        run: SyncCommands.confirm),
                    CommandSpec(
                        "reject", summary: "Undo the deletions a sync held back.",
                        arguments: [ArgumentSpec("NAME", help: "the account", completion: .accounts)],
                        run: SyncCommands.reject),
                ],
                run: SyncCommands.run),
            CommandSpec(
                "serve", summary: "Serve the contacts over CardDAV on this machine (Thunderbird, GNOME Contacts, Evolution, khard).",
                subcommands: [
                    CommandSpec(
                        "enable", summary: "Serve them (on 127.0.0.1:5232 unless told otherwise) and print the address.",
                        options: [
                            OptionSpec("port", value: "PORT", help: "the port (default 5232)"),
                            OptionSpec("address", value: "HOST", help: "127.0.0.1 (the default), ::1 or localhost"),
                        ],
                        run: ServeCommands.enable),
                    CommandSpec("disable", summary: "Stop serving them.", run: ServeCommands.disable),
                    CommandSpec(
                        "url", summary: "Print the address to give a client, or a book's.",
                        arguments: [ArgumentSpec("BOOK", optional: true, help: "local, or an account's name", completion: .accounts)],
                        run: ServeCommands.url),
                    CommandSpec(
                        "setup-evolution", summary: "Show a book in GNOME Contacts and Evolution (writes their source file).",
                        arguments: [
                            ArgumentSpec("BOOK", optional: true, help: "local (the default), or an account's name", completion: .accounts)
                        ],
                        options: [OptionSpec("remove", help: "remove the source file instead")],
                        run: ServeCommands.setupEvolution),
                    CommandSpec(
                        "status", summary: "Where the contacts are served, on this machine and on the network.", run: DeviceCommands.status),
                    CommandSpec(
                        "lan", summary: "Serve them to your phone and other devices on the local network, over TLS.",
                        subcommands: [
                            CommandSpec(
                                "enable", summary: "Serve them on the network (every address, port 5233, unless told otherwise).",
                                options: [
                                    OptionSpec(
                                        "address", value: "ADDR", help: "the address to listen on (default: every address, 0.0.0.0)"),
                                    OptionSpec("port", value: "PORT", help: "the port (default 5233)"),
                                    OptionSpec(
                                        "host", value: "NAME", help: "the host name devices are given (default: the machine's address)"),
                                ],
                                run: DeviceCommands.enableLAN),
                            CommandSpec("disable", summary: "Stop serving them on the network.", run: DeviceCommands.disableLAN),
                        ]),
                    CommandSpec(
                        "certificate",
                        summary: "Show the network face's certificate (its fingerprint, as phones show it), or renew or replace it.",
                        arguments: [
                            ArgumentSpec(
                                "KEY", optional: true, help: "with --use: the certificate's private key (PEM)",
                                completion: .files(extensions: ["pem", "key"]))
                        ],
                        options: [
                            OptionSpec("renew", help: "make a new key and certificate (devices must accept it again)"),
                            OptionSpec(
                                "use", value: "CERT", help: "use your own certificate (PEM) and KEY",
                                completion: .files(extensions: ["pem", "crt"])),
                        ],
                        run: DeviceCommands.certificate),
                    CommandSpec(
                        "device", summary: "The devices that may sync over the network, each with its own password.",
                        subcommands: [
                            CommandSpec(
                                "add",
                                summary:
                                    "Let a device in: prints its password (once), the address, the fingerprint and a QR code for DAVx⁵.",
                                arguments: [ArgumentSpec("NAME", help: "the device's name, also its user name")],
                                options: [
                                    OptionSpec("read-only", help: "it may read, not change"),
                                    OptionSpec(
                                        "book", value: "BOOK", repeats: true,
                                        help: "only this book (local, or an account's name); repeatable", completion: .accounts),
                                ] + qrOptions,
                                run: DeviceCommands.add),
                            CommandSpec(
                                "list", summary: "The devices: books, access, when added, last seen, wrong passwords.",
                                run: DeviceCommands.list),
                            CommandSpec(
                                "remove", summary: "Take a device away: refused from its next request on.",
                                arguments: [ArgumentSpec("NAME", help: "the device", completion: .devices)], run: DeviceCommands.remove),
                            CommandSpec(
                                "password", summary: "Give a device a new password; the old one stops at once.",
                                arguments: [ArgumentSpec("NAME", help: "the device", completion: .devices)], options: qrOptions,
                                run: DeviceCommands.password),
                        ]),
                ]),
            CommandSpec(
                "fav", summary: "Mark a contact as a favorite.", arguments: [contactArg], run: { try ContactCommands.favorite(&$0, true) }),
            CommandSpec("unfav", summary: "Unmark a favorite.", arguments: [contactArg], run: { try ContactCommands.favorite(&$0, false) }),
            CommandSpec(
                "group", summary: "Manage groups.",
                subcommands: [
                    CommandSpec("list", summary: "List groups with their member counts.", run: GroupCommands.list),
                    CommandSpec(
                        "add", summary: "Create a group.", arguments: [ArgumentSpec("GROUP", help: "the new group's name")],
                        run: GroupCommands.add),
                    CommandSpec(
                        "rm", summary: "Delete a group (its members are kept).",
                        arguments: [ArgumentSpec("GROUP", help: "the group", completion: .groups)], run: GroupCommands.remove),
                    CommandSpec(
                        "rename", summary: "Rename a group.",
                        arguments: [
                            ArgumentSpec("GROUP", help: "the group", completion: .groups), ArgumentSpec("NEW", help: "its new name"),
                        ],
                        run: GroupCommands.rename),
                    CommandSpec(
                        "members", summary: "List a group's members.",
                        arguments: [ArgumentSpec("GROUP", help: "the group", completion: .groups)],
                        run: GroupCommands.members),
                    CommandSpec(
                        "assign", summary: "Put a contact in a group.",
                        arguments: [contactArg, ArgumentSpec("GROUP", help: "the group", completion: .groups)],
                        run: { try GroupCommands.assign(&$0, add: true) }),
                    CommandSpec(
                        "unassign", summary: "Take a contact out of a group.",
                        arguments: [contactArg, ArgumentSpec("GROUP", help: "the group", completion: .groups)],
                        run: { try GroupCommands.assign(&$0, add: false) }),
                ]),
            CommandSpec(
                "photo", summary: "Set, fetch or remove a contact's photo.",
                subcommands: [
                    CommandSpec(
                        "set", summary: "Give a contact a photo (JPEG, PNG, WebP, HEIC or GIF); '-' reads standard input.",
                        arguments: [
                            contactArg,
                            ArgumentSpec(
                                "FILE", help: "the image", completion: .files(extensions: ["jpg", "jpeg", "png", "webp", "heic", "gif"])),
                        ],
                        run: PhotoCommands.set),
                    CommandSpec(
                        "get", summary: "Print the path of a thumbnail of a contact's photo, or write it to a file.",
                        arguments: [contactArg],
                        options: [
                            OptionSpec("size", short: "s", value: "N", help: "the longer side in pixels, 16 to 1024 (default 256)"),
                            OptionSpec("crop", help: "square, cropped at the centre"),
                            OptionSpec(
                                "output", short: "o", value: "FILE", help: "write the JPEG to FILE ('-' for standard output)",
                                completion: .files(extensions: [])),
                        ],
                        run: PhotoCommands.get),
                    CommandSpec("rm", summary: "Remove a contact's photo.", arguments: [contactArg], run: PhotoCommands.remove),
                ]),
            CommandSpec(
                "import", summary: "Import vCard (2.1, 3.0, 4.0), Google or Outlook CSV, or JSON files; '-' reads standard input.",
                arguments: [
                    ArgumentSpec(
                        "FILE", variadic: true, help: "files to import", completion: .files(extensions: ["vcf", "vcard", "csv", "json"]))
                ],
                run: TransferCommands.importFiles),
            CommandSpec(
                "export", summary: "Export contacts as vCard, JSON or CSV, or their birthdays and dates as a calendar (ics).",
                arguments: [ArgumentSpec("ID", optional: true, variadic: true, help: "only these contacts", completion: .contacts)],
                options: [
                    OptionSpec(
                        "format", value: "FORMAT",
                        help: "vcard3, vcard4 (default), json, csv (Google's, which Outlook and phones read) or ics (yearly events)",
                        completion: .choices(ContactsExport.Format.allCases.map(\.rawValue))),
                    OptionSpec(
                        "output", short: "o", value: "FILE", help: "write to FILE instead of standard output",
                        completion: .files(extensions: [])),
                    OptionSpec("query", short: "q", value: "TEXT", help: "only contacts matching TEXT"),
                    groupFilter, favoritesFilter, accountFilter,
                ],
                run: TransferCommands.export),
            CommandSpec(
                "backup", summary: "Write a consistent copy of the store to FILE while the daemon keeps serving.",
                arguments: [ArgumentSpec("FILE", help: "where the copy goes", completion: .files(extensions: []))],
                run: TransferCommands.backup),
            CommandSpec(
                "restore", summary: "Replace every contact and group with those of a backup; 'undo' after it puts the replaced store back.",
                arguments: [ArgumentSpec("FILE", help: "a file made by 'contactsctl backup'", completion: .files(extensions: []))],
                options: [OptionSpec("yes", short: "y", help: "do not ask for confirmation")],
                run: TransferCommands.restore),
            CommandSpec("status", summary: "Show the daemon's state.", run: ContactCommands.status),
            CommandSpec(
                "watch", summary: "Print the list, then each change to it as it happens, until interrupted.",
                arguments: [ArgumentSpec("TEXT", optional: true, help: "only contacts that match, as search finds them")],
                options: [
                    favoritesFilter, groupFilter, accountFilter,
                    OptionSpec("limit", short: "n", value: "N", help: "only the first N of the list"),
                    OptionSpec("events", help: "print every change to the store (imports, syncs, groups) instead"),
                ],
                run: WatchCommand.run),
            CommandSpec(
                "query-email", summary: "Find email addresses for mutt's query_command and aerc's address-book-cmd.",
                arguments: [ArgumentSpec("TEXT", help: "part of a name, nickname, organization or address")],
                options: [
                    OptionSpec("no-header", help: "leave out the header line (for aerc)"),
                    OptionSpec("limit", short: "n", value: "N", help: "at most N addresses (default 100)"),
                ],
                run: LiveCommands.queryEmail),
            CommandSpec(
                "mail",
                summary: "Collect the addresses of mail: a message piped in, or whole mailboxes.",
                subcommands: [
                    CommandSpec(
                        "add",
                        summary:
                            "Read one message on stdin (mutt's <pipe-message>, aerc's :pipe): collect or count its sender.",
                        options: [
                            OptionSpec("all", short: "a", help: "also its To, Cc and Reply-To"),
                            OptionSpec("sent", help: "the message is the user's own: its recipients are written to"),
                            OptionSpec(
                                "to", value: "CONTACT", help: "add the sender's address to this contact (a name or id) instead",
                                completion: .contacts),
                            OptionSpec("keep", help: "add the sender as a full contact, not a collected one"),
                        ],
                        run: MailCommands.add),
                    CommandSpec(
                        "harvest", summary: "Collect the addresses of every message in maildirs and mbox files.",
                        arguments: [
                            ArgumentSpec(
                                "PATH", variadic: true, help: "a maildir, a folder of them, or an mbox file",
                                completion: .files(extensions: []))
                        ],
                        options: [
                            OptionSpec("sent", help: "the messages are the user's own (a Sent folder): their recipients are written to"),
                            OptionSpec("all", short: "a", help: "also the To, Cc and Reply-To of messages received"),
                        ],
                        run: MailCommands.harvest),
                ]),
            CommandSpec(
                "collected", summary: "List the addresses collected from mail, the most written to first.",
                arguments: [ArgumentSpec("TEXT", optional: true, help: "only those that match")],
                options: [OptionSpec("limit", short: "n", value: "N", help: "at most N addresses")], run: MailCommands.collected),
            CommandSpec(
                "keep", summary: "Make contacts collected from mail ordinary ones (in lists, exports and sync).",
                arguments: [ArgumentSpec("CONTACT", variadic: true, help: "a name or id", completion: .contacts)], run: MailCommands.keep),
            CommandSpec(
                "me", summary: "Say which contact is you (its addresses are yours in mail), or mark one.",
                arguments: [ArgumentSpec("CONTACT", optional: true, help: "the contact that is you", completion: .contacts)],
                options: [OptionSpec("clear", help: "no contact is you")], run: MailCommands.me),
            CommandSpec(
                "who", summary: "Say whose number this is (caller ID): the name and the phone's label.",
                arguments: [ArgumentSpec("NUMBER", help: "the number as it arrived: +49 171 5550199, 0171 5550199, (415) 555-0132")],
                options: [OptionSpec("all", short: "a", help: "every match, also the weaker ones, each with how it matched")],
                run: LiveCommands.who),
            CommandSpec(
                "completions", summary: "Print the completion script for a shell (man: the man page's options).",
                arguments: [
                    ArgumentSpec("SHELL", help: "bash, zsh or fish; man", completion: .choices(["bash", "zsh", "fish", "man"]))
                ],
                run: LiveCommands.completions),
            CommandSpec(
                "__complete", summary: "Print live values for completion scripts.",
                arguments: [
                    ArgumentSpec("KIND", help: "contacts or groups", completion: .choices(["contacts", "groups"])),
                    ArgumentSpec("PREFIX", optional: true, help: "what has been typed"),
                ],
                hidden: true, run: LiveCommands.completeValues),
            CommandSpec(
                "call", summary: "Call a JSON-RPC method and print its result.",
                arguments: [
                    ArgumentSpec("METHOD", help: "the method, e.g. contacts.query"),
                    ArgumentSpec("JSON", optional: true, help: "the params object ('-' reads it from stdin)"),
                ],
                run: ContactCommands.rawCall),
        ])
}
