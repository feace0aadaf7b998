import ContactsCore
import JSONCore
import XCTest

@testable import ContactsDaemon

/// The pages of the program that were only read are let go at rest, and come back as they run.
final class ProgramPagesTests: XCTestCase {
    func testOnlyPrivateReadOnlyFileMappingsAreLetGo() throws {
        func clean(_ line: String) throws -> Bool { try XCTUnwrap(ProgramPages.Mapping(line[...])).isCleanFile }
        XCTAssertTrue(try clean("7f18c498c000-7f18c4ae2000 r-xp 00028000 fe:01 1234    /usr/lib/x86_64-linux-gnu/libc.so.6"))
        XCTAssertTrue(try clean("559ca728b000-559ca767a000 r--p 00000000 fe:01 99 /opt/app/bin/contactsd"))
        XCTAssertFalse(try clean("559ca87f3000-559caac14000 rw-p 01ee3000 fe:01 99 /opt/app/bin/contactsd"), "written data")
        XCTAssertFalse(try clean("7f18c4000000-7f18c4100000 r--s 00000000 fe:01 77 /home/u/.local/share/contactsd/contacts.sqlite3"))
        XCTAssertFalse(try clean("7ffd1b7e2000-7ffd1b7e4000 r-xp 00000000 00:00 0                          [vdso]"))
        XCTAssertFalse(try clean("7f18a9a00000-7f18b1e00000 rw-p 00000000 00:00 0 "), "the heap")
        XCTAssertFalse(try clean("7f18b9a00000-7f18b9e00000 r--p 00000000 00:00 0 "), "anonymous, made read-only")
        XCTAssertNil(ProgramPages.Mapping("Rss:                 972 kB"))
    }

    func testTheProcessRunsOnAfterItsReadOnlyPagesAreLetGo() throws {
        func work() -> (JSONValue, String) {
            var c = Contact(name: "Zoë Ångström 佐々木")
            c.phones = [LabeledValue(value: "+49 171 5550111", label: "mobile")]
            return (c.json, SearchFolding.fold(c.name))
        }
        let before = work()
        let filesBefore = Memory.process().files
        XCTAssertGreaterThan(ProgramPages.release(), 0)
        XCTAssertLessThan(Memory.process().files, filesBefore, "file pages unmapped")
        // The code and tables just let go are mapped again as they run, as they were.
        let after = work()
        XCTAssertEqual(after.0, before.0)
        XCTAssertEqual(after.1, "zoe angstrom zuo zuo mu")
    }
}
