// swift-tools-version:6.0
import PackageDescription

// The clients are static executables: no dynamic loader, no relocations, no shared library to
// map at start (mail clients and shells start them on every completion). lld takes the static
// archives in any order; Foundation's own parts are named for the full client, as a build
// without -static-stdlib does not name them. A sanitizer's runtime cannot be linked so: the
// sanitized builds (scripts/test-sanitizers.sh) link them as usual.
let sanitized = Context.environment["CONTACTSD_SANITIZED"] != nil
let staticExecutable: [LinkerSetting] =
    sanitized ? [] : [.unsafeFlags(["-static-executable", "-use-ld=lld"])]
let staticFoundationExecutable: [LinkerSetting] =
    sanitized
    ? []
    : [
        .unsafeFlags([
            "-static-executable", "-use-ld=lld", "-l_FoundationICU", "-l_FoundationCollections", "-l_FoundationCShims", "-lCoreFoundation",
            "-lswiftSynchronization",
        ])
    ]

let package = Package(
    name: "contactsd",
    products: [
        .executable(name: "contactsd", targets: ["contactsd"]),
        .executable(name: "contactsctl", targets: ["contactsctl"]),
        .executable(name: "contactsctl-full", targets: ["contactsctl-full"]),
        .executable(name: "contactsd-imaging", targets: ["contactsd-imaging"]),
    ],
    targets: [
        // C libraries from Debian, each behind one system-library target.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        // The daemon's allocator: threads that parse while another writes and frees.
        // (Linked by its module map where it is imported, so that a sanitized build can leave it out.)
        .systemLibrary(name: "CJemalloc", providers: [.apt(["libjemalloc-dev"])]),
        // How the daemon's jemalloc is set up (an arena a CPU): one C string it reads.
        .target(name: "JemallocSettings"),
        // HTTP for sync: libcurl's blocking interface, one request on the caller's thread (no
        // event loop spinning while a slow server thinks), TLS with the system's trust store;
        // loaded at the first request (libcurl4-openssl-dev's headers, libcurl.so.4), not at start.
        .target(name: "CCurl", dependencies: ["LateLibrary"]),
        // libvips' thumbnail and save calls are variadic: a few plain C functions wrap them.
        .target(name: "VipsShim", dependencies: ["CVips"]),
        // HTTP serving (the CardDAV face): GNU libmicrohttpd (libmicrohttpd-dev's header), loaded
        // when the first listener starts, not at start (it brings GnuTLS); its variadic calls
        // behind plain C functions.
        .target(name: "MicroHTTPDShim", dependencies: ["LateLibrary"]),
        // GnuTLS's certificate calls (libgnutls28-dev's headers, libgnutls.so.30), loaded when
        // the LAN face's certificate is made or read: an ECDSA key, a self-signed certificate,
        // what a certificate says.
        .target(name: "TLSShim", dependencies: ["LateLibrary"]),
        // libqrencode (libqrencode-dev's header, libqrencode.so.4), loaded when the daemon is
        // first asked for a QR code (a device's link).
        .target(name: "QRShim", dependencies: ["LateLibrary"]),
        // libsecret (the Secret Service) behind three functions, loaded when a secret is first kept or read.
        .target(name: "SecretShim", dependencies: ["LateLibrary"]),
        // GMime (libgmime-3.0.so.0, as notmuch uses it) behind three functions, loaded when the
        // first message is read: address headers and dates.
        .target(name: "MailShim", dependencies: ["LateLibrary"]),
        // GNOME Online Accounts' Google accounts and their tokens, over the session bus (sd-bus).
        .target(name: "GOAShim", dependencies: ["CSystemd"]),
        // An account's secrets (a refresh token) in the user's keyring.
        .target(name: "Secrets", dependencies: ["SecretShim"]),
        // A shared library opened when first needed, its functions found by name, and why it
        // could not be: what the four shims above share.
        .target(name: "LateLibrary"),

        // What is not about contacts: system calls and their errors, files, time, the parallel
        // pipeline, SHA-256, base64, log levels.
        .target(name: "ContactsSupport", dependencies: ["SHA256Kernel", "CSystem"]),
        // System calls and C library functions the Glibc module leaves out (syncfs, malloc_trim).
        .target(name: "CSystem"),
        // SQLite's allocator: the same count of its heap as SQLite's own, without its global lock.
        .target(name: "SQLiteMemory"),
        // An HTTP/1.1 server on a TCP socket, each request read whole and handed to one
        // function; who may connect told by the owner of the peer's socket. Knows nothing of DAV.
        .target(name: "HTTPServer", dependencies: ["MicroHTTPDShim", "TLSShim", "CSystem", "ContactsSupport"]),
        // The store served over CardDAV: discovery, PROPFIND, cards, reports, answered from a
        // narrow protocol the daemon implements over its store (this module knows no SQLite).
        .target(name: "CardDAVServer", dependencies: ["HTTPServer", "DAVXML", "VCard", "ContactsSupport"]),
        // A small, exact JSON value type with its own parser and writer.
        .target(name: "JSONCore"),
        // Where contactsd's files and socket are by the XDG Base Directory rules, and the
        // process's environment they are read from (the C library alone).
        .target(name: "BaseDirectories"),
        // query-email as mail clients run it: the request, one round trip over the socket, the
        // lines printed; the C library and JSONCore alone, so that the small client is small.
        .target(name: "MailCompletion", dependencies: ["BaseDirectories", "JSONCore"]),
        // A JSON-RPC 2.0 engine and its Unix-socket transport; knows nothing about contacts.
        .target(name: "JSONRPC", dependencies: ["JSONCore", "ContactsSupport"]),
        // A lossless vCard codec (2.1, 3.0, 4.0 in; 3.0 and 4.0 out); knows nothing about contacts.
        .target(name: "VCard"),
        // The daemon/client contract: method and notification names, error codes, the version.
        .target(name: "ContactsAPI", dependencies: ["JSONRPC", "JSONCore", "ContactsSupport"]),
        // Messages as mail.add takes them: headers read (GMime for addresses and dates); knows
        // nothing about contacts or the store.
        .target(name: "MailHeaders", dependencies: ["MailShim", "ContactsAPI", "ContactsSupport"]),
        // Where messages are: maildirs and mbox files walked, each message's header bytes.
        .target(name: "MailFiles", dependencies: ["ContactsAPI"]),
        // Phone numbers as numbers: libphonenumber (C++, Debian's libphonenumber-dev) behind
        // a few C functions, and the Swift face of them.
        .target(name: "PhoneNumberShim", linkerSettings: [.linkedLibrary("phonenumber"), .linkedLibrary("stdc++")]),
        .target(name: "PhoneNumbers", dependencies: ["PhoneNumberShim", "ContactsSupport"]),
        // The contact model, its JSON shapes, validation, vCard mapping and search normalisation.
        .target(name: "ContactsCore", dependencies: ["ContactsAPI", "ContactsSupport", "JSONCore", "VCard", "PhoneNumbers"]),
        // Contacts as Google's and Outlook's CSV exports hold them, read and written.
        .target(name: "ContactsCSV", dependencies: ["ContactsCore", "ContactsSupport", "VCard"]),
        // Duplicates: finding contacts that are one person (blocking keys, scores, groups),
        // and merging them without losing a value.
        .target(name: "Duplicates", dependencies: ["ContactsCore", "ContactsSupport", "PhoneNumbers", "VCard"]),
        // SHA-256 blocks with the processor's SHA instructions, where it has them.
        .target(name: "SHA256Kernel"),
        // The SQLite store: the only module that touches SQLite.
        .target(
            name: "ContactsStore",
            dependencies: [
                "ContactsCore", "ContactsSupport", "JSONCore", "VCard", "PhoneNumbers", "CSQLite", "SQLiteMemory", "ScanKernel",
            ]),
        // Duplicates among the stored contacts and their merge: the Duplicates module's finder
        // and merge run against what the store gives them (the store knows neither).
        .target(
            name: "StoredDuplicates", dependencies: ["ContactsStore", "Duplicates", "ContactsCore", "ContactsSupport", "PhoneNumbers"]),
        // The search scan's inner loop: finding a pair of bytes sixteen positions at a time.
        .target(name: "ScanKernel"),
        // Photos to checked headers and cached thumbnails, decoded by a helper process.
        .target(name: "Thumbnails", dependencies: ["ContactsSupport"]),
        // libvips behind the image helper: the only module that touches it.
        .target(name: "VipsImages", dependencies: ["VipsShim", "Thumbnails", "ContactsSupport"]),
        // WebDAV and CardDAV over HTTP (libcurl, FoundationXML): discovery, reports, writes
        // with preconditions; knows nothing about contacts or the store.
        .target(name: "CardDAV", dependencies: ["CCurl", "ResolvShim", "DAVXML", "ContactsSupport"]),
        // The WebDAV and CardDAV vocabulary both sides share: XML read as a small tree,
        // written with the namespaces' prefixes, and the names of the namespaces.
        .target(name: "DAVXML"),
        // DNS service records (RFC 6764 discovery) through the C library's resolver.
        .target(name: "ResolvShim", linkerSettings: [.linkedLibrary("resolv")]),
        // Two-way sync of the store with an account's cards: the engine, its backends (CardDAV
        // now), the three-way merge's use, the deletion guard, the intent journal.
        .target(name: "ContactsSync", dependencies: ["CardDAV", "ContactsStore", "ContactsCore", "ContactsSupport", "VCard"]),
        // A Google account's contacts through the People API, as a backend of the sync engine:
        // people as cards, labels as groups, starred as favorite, batched writes.
        .target(
            name: "GooglePeople", dependencies: ["CardDAV", "ContactsSync", "ContactsCore", "ContactsSupport", "JSONCore", "VCard"]),
        // Wires store, RPC, systemd and configuration into the service.
        .target(
            name: "ContactsDaemon",
            dependencies: [
                "ContactsAPI", "ContactsStore", "Thumbnails", "ContactsCore", "ContactsSupport", "VCard", "JSONRPC", "JSONCore", "CSystemd",
                "CSystem", "CardDAV", "ContactsSync", "PhoneNumbers", "Duplicates", "StoredDuplicates", "ContactsCSV", "HTTPServer",
                "CardDAVServer", "GooglePeople", "Secrets", "GOAShim", "MailHeaders", "MailFiles", "QRShim", "BaseDirectories",
            ]),
        // The command-line client's logic; links no library it would have to load (mail headers
        // and QR codes are the daemon's to make), so that it can be one static executable.
        .target(
            name: "ContactsControl",
            dependencies: ["ContactsAPI", "JSONRPC", "JSONCore", "ContactsSupport", "MailFiles", "BaseDirectories", "MailCompletion"]),

        // jemalloc is linked here, into the executable alone: it serves the daemon's every malloc.
        .executableTarget(name: "contactsd", dependencies: ["ContactsAPI", "ContactsDaemon", "CJemalloc", "JemallocSettings"]),
        // contactsctl answers query-email itself without mapping Foundation, and runs
        // contactsctl-full, the whole client, for everything else.
        .executableTarget(name: "contactsctl", dependencies: ["MailCompletion", "BaseDirectories"], linkerSettings: staticExecutable),
        .executableTarget(name: "contactsctl-full", dependencies: ["ContactsControl"], linkerSettings: staticFoundationExecutable),
        // Decodes photos for contactsd in a process of its own (started and stopped by it).
        .executableTarget(name: "contactsd-imaging", dependencies: ["VipsImages"]),
        // Generates a corpus and measures the store and the service; run it in release mode.
        .executableTarget(
            name: "contacts-bench",
            dependencies: [
                "ContactsStore", "ContactsCore", "ContactsSupport", "VCard", "JSONRPC", "JSONCore", "Thumbnails", "VipsImages", "CardDAV",
                "ContactsSync", "PhoneNumbers", "Duplicates", "StoredDuplicates", "GooglePeople",
            ]),

        .testTarget(name: "JSONCoreTests", dependencies: ["JSONCore"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer"]),
        // The CardDAV face against books in memory: every request through the listener's handler.
        .testTarget(name: "CardDAVServerTests", dependencies: ["CardDAVServer", "HTTPServer", "DAVXML"]),
        .testTarget(name: "DAVXMLTests", dependencies: ["DAVXML"]),
        .testTarget(name: "ContactsAPITests", dependencies: ["ContactsAPI", "JSONRPC", "JSONCore"]),
        // Messages read with the real GMime: encoded words, groups, broken and huge headers, maildirs and mbox files.
        .testTarget(name: "MailHeadersTests", dependencies: ["MailHeaders", "MailFiles", "ContactsAPI"]),
        .testTarget(name: "VCardTests", dependencies: ["VCard", "TestSupport"]),
        .testTarget(name: "PhoneNumbersTests", dependencies: ["PhoneNumbers"]),
        .testTarget(name: "ContactsCSVTests", dependencies: ["ContactsCSV", "ContactsCore", "VCard"]),
        .testTarget(name: "DuplicatesTests", dependencies: ["Duplicates", "ContactsCore", "VCard", "TestSupport"]),
        .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC", "JSONCore"]),
        // The CardDAV client against real Radicale and Xandikos servers on 127.0.0.1.
        .testTarget(name: "CardDAVTests", dependencies: ["CardDAV", "TestSupport"]),
        // The sync engine between a real store and real Radicale and Xandikos servers.
        .testTarget(
            name: "ContactsSyncTests",
            dependencies: [
                "ContactsSync", "CardDAV", "ContactsStore", "StoredDuplicates", "ContactsCore", "VCard", "ContactsSupport", "TestSupport",
            ]),
        // The People API backend against a faithful fake of Google's (Tests/fakes/people_fake.py).
        .testTarget(
            name: "GooglePeopleTests",
            dependencies: ["GooglePeople", "ContactsSync", "CardDAV", "ContactsStore", "ContactsCore", "JSONCore", "TestSupport"]),
        .testTarget(name: "ContactsSupportTests", dependencies: ["ContactsSupport", "SHA256Kernel"]),
        .testTarget(name: "ContactsCoreTests", dependencies: ["ContactsCore", "ContactsSupport", "JSONCore", "VCard", "TestSupport"]),
        .testTarget(
            name: "ContactsStoreTests",
            dependencies: [
                "ContactsStore", "ContactsCore", "ContactsSupport", "JSONCore", "VCard", "ScanKernel", "PhoneNumbers", "Duplicates",
                "StoredDuplicates",
                "TestSupport",
            ]),
        // The daemon's methods driven in process over a temporary store, its options and settings.
        .testTarget(
            name: "ContactsDaemonTests",
            dependencies: [
                "ContactsDaemon", "ContactsAPI", "ContactsStore", "ContactsCore", "ContactsSupport", "JSONRPC", "JSONCore", "TestSupport",
                "CardDAVServer", "BaseDirectories",
            ]),
        // The client's parser, help and tables.
        .testTarget(
            name: "ContactsControlTests", dependencies: ["ContactsControl", "ContactsAPI", "JSONCore", "ContactsCore", "MailCompletion"]),
        // Helpers shared by the test targets (hostile images, the material in ../shared).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "ThumbnailsTests", dependencies: ["Thumbnails", "VipsImages", "TestSupport", "ContactsCore", "ContactsSupport", "VCard"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["JSONCore", "JSONRPC", "ContactsCore", "ContactsSupport", "Thumbnails", "VipsImages", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
