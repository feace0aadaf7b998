import ContactsCore
import Foundation
import XCTest

@testable import ContactsCSV

/// Google's and Outlook's contact exports as those programs write them, read field by field.
final class CSVImportTests: XCTestCase {
    /// Google Contacts' export (the long-standing header): several values in one cell, a
    /// starred label, the system group, an address whose formatted text has a line break.
    static let google = """
        Name,Given Name,Additional Name,Family Name,Yomi Name,Given Name Yomi,Additional Name Yomi,Family Name Yomi,Name Prefix,Name Suffix,Initials,Nickname,Short Name,Maiden Name,Birthday,Gender,Location,Billing Information,Directory Server,Mileage,Occupation,Hobby,Sensitivity,Priority,Subject,Notes,Language,Photo,Group Membership,E-mail 1 - Type,E-mail 1 - Value,E-mail 2 - Type,E-mail 2 - Value,Phone 1 - Type,Phone 1 - Value,Phone 2 - Type,Phone 2 - Value,Address 1 - Type,Address 1 - Formatted,Address 1 - Street,Address 1 - City,Address 1 - PO Box,Address 1 - Region,Address 1 - Postal Code,Address 1 - Country,Address 1 - Extended Address,Organization 1 - Type,Organization 1 - Name,Organization 1 - Yomi Name,Organization 1 - Title,Organization 1 - Department,Organization 1 - Symbol,Organization 1 - Location,Organization 1 - Job Description,Website 1 - Type,Website 1 - Value,Custom Field 1 - Type,Custom Field 1 - Value
        José Núñez García,José,,Núñez García,,,,,,,,Pepe,,,1979-11-23,,,,,,,,,,,"Met in Sevilla.
        Likes ""flamenco"".",,,* myContacts ::: Friends ::: Family,* Home,jose@example.es ::: pepe@example.org,Work,jose.nunez@acme.example,Mobile,+34 612 345 678 ::: +34 699 000 111,Grandma's landline,+34 954 000 000,Home,"Calle Sierpes 12
        41004 Sevilla
        Spain",Calle Sierpes 12,Sevilla,,Andalucía,41004,Spain,,,Acme Iberia,,Engineer,R&D,,,,Blog,https://pepe.example,Shoe size,44
        Zhāng Wěi,伟,,张,,,,,,,,,,,--02-29,,,,,,,,,,,,,,* myContacts,,wei@example.cn,,,,,,,,,,,,,,,,,,,,,,,,,,,
        """

    func testGoogleExportsAreReadFieldByField() throws {
        let file = CSVImport.read(text: Self.google)
        XCTAssertEqual(file.dialect, .google)
        XCTAssertEqual(file.rows.count, 2)
        let jose = try file.rows[0].contact.get()
        XCTAssertEqual(file.rows[0].line, 2)
        XCTAssertEqual(jose.name, "José Núñez García")
        XCTAssertEqual(jose.structuredName, StructuredName(family: "Núñez García", given: "José"))
        XCTAssertEqual(jose.nickname, "Pepe")
        XCTAssertEqual(jose.birthday, "1979-11-23")
        XCTAssertEqual(jose.note, "Met in Sevilla.\nLikes \"flamenco\".")
        XCTAssertEqual(jose.groups, ["Friends", "Family"])
        XCTAssertEqual(
            jose.emails,
            [
                LabeledValue(value: "jose@example.es", label: "home"), LabeledValue(value: "pepe@example.org", label: "home"),
                LabeledValue(value: "jose.nunez@acme.example", label: "work"),
            ])
        XCTAssertEqual(
            jose.phones,
            [
                LabeledValue(value: "+34 612 345 678", label: "mobile"), LabeledValue(value: "+34 699 000 111", label: "mobile"),
                LabeledValue(value: "+34 954 000 000", label: "Grandma's landline"),
            ])
        var address = PostalAddress(
            street: "Calle Sierpes 12", locality: "Sevilla", region: "Andalucía", postalCode: "41004", country: "Spain")
        address.label = "home"
        XCTAssertEqual(jose.addresses, [address])
        XCTAssertEqual(jose.organization, "Acme Iberia")
        XCTAssertEqual(jose.title, "Engineer")
        XCTAssertEqual(jose.urls, [LabeledValue(value: "https://pepe.example", label: "blog")])
        // Columns no field holds are kept with their names.
        let kept = (jose.vcardProperties ?? []).map { "\($0.parameter("X-NAME") ?? ""): \($0.text)" }
        XCTAssertEqual(kept, ["Custom Field 1 - Type: Shoe size", "Custom Field 1 - Value: 44"])
        XCTAssertEqual(jose.department, "R&D")
        XCTAssertTrue(jose.uid.hasPrefix("urn:contactsd:csv-"))

        let wei = try file.rows[1].contact.get()
        XCTAssertEqual(wei.name, "Zhāng Wěi")
        XCTAssertEqual(wei.structuredName, StructuredName(family: "张", given: "伟"))
        XCTAssertEqual(wei.birthday, "--02-29")
        XCTAssertEqual(wei.groups, [])
        XCTAssertEqual(wei.emails.map(\.value), ["wei@example.cn"])
        XCTAssertNil(wei.vcardProperties)
        // The same file read again names its rows alike: an import of it again changes nothing.
        XCTAssertEqual(try CSVImport.read(text: Self.google).rows.map { try $0.contact.get().uid }, [jose.uid, wei.uid])
    }

    func testGooglesNewerHeaderToo() throws {
        let text = """
            First Name,Middle Name,Last Name,Nickname,Organization Name,Organization Title,Birthday,Notes,Labels,E-mail 1 - Label,E-mail 1 - Value,Phone 1 - Label,Phone 1 - Value
            Anna,Maria,Haro,,Apple,Designer,1985-03-04,,Work ::: * myContacts,* Work,anna@example.com,Mobile,(555) 522-8243

            """
        let file = CSVImport.read(text: text)
        XCTAssertEqual(file.dialect, .google)
        let anna = try XCTUnwrap(file.rows.first).contact.get()
        XCTAssertEqual(anna.name, "Anna Maria Haro")
        XCTAssertEqual(anna.organization, "Apple")
        XCTAssertEqual(anna.title, "Designer")
        XCTAssertEqual(anna.groups, ["Work"])
        XCTAssertEqual(anna.emails, [LabeledValue(value: "anna@example.com", label: "work")])
        XCTAssertEqual(anna.phones, [LabeledValue(value: "(555) 522-8243", label: "mobile")])
    }

    /// Outlook's export in English, its usual columns and its "no value" defaults.
    static let outlook = """
        "Title","First Name","Middle Name","Last Name","Suffix","Company","Department","Job Title","Business Street","Business Street 2","Business City","Business State","Business Postal Code","Business Country/Region","Home Street","Home City","Home State","Home Postal Code","Home Country/Region","Business Fax","Business Phone","Home Phone","Mobile Phone","Other Phone","Birthday","Categories","E-mail Address","E-mail Type","E-mail Display Name","E-mail 2 Address","Gender","Notes","Priority","Private","Sensitivity","Web Page","Spouse"
        "Dr.","Kate","","Bell","","Creative Consulting","Design","Producer","165 Davis Street","Suite 200","Hillsborough","CA","94010","United States of America","","","","","","(555) 555-0001","(555) 564-8583","","(415) 555-3695","","5/14/1980","Clients;VIP","kate-bell@mac.com","SMTP","Kate Bell (kate-bell@mac.com)","kate@example.org","Unspecified","","Normal","False","Normal","www.icloud.com","Daniel"
        "","Nobody","","","","","","","","","","","","","","","","","","","","","","","0/0/00","","","","","","Unspecified","","Normal","False","Normal","",""

        """

    static let googleWithDatesAndMessaging = """
        Name,Given Name,Family Name,Phonetic First Name,Phonetic Last Name,Organization 1 - Name,Organization 1 - Department,Event 1 - Type,Event 1 - Value,Event 2 - Type,Event 2 - Value,Relation 1 - Type,Relation 1 - Value,IM 1 - Type,IM 1 - Service,IM 1 - Value,IM 2 - Type,IM 2 - Service,IM 2 - Value
        山田 太郎,太郎,山田,たろう,やまだ,Acme,Research,Anniversary,2010-06-12,Graduation,--03-20,Spouse,Hanako Yamada,Home,Jabber,taro@jabber.example,Work,Skype,taro.yamada

        """

    func testGoogleDatesRelationsMessagingAndReadingsAreFields() throws {
        let file = CSVImport.read(text: Self.googleWithDatesAndMessaging)
        var taro = try file.rows[0].contact.get()
        XCTAssertEqual(taro.phoneticName, PhoneticName(given: "たろう", family: "やまだ"))
        XCTAssertEqual(taro.department, "Research")
        XCTAssertEqual(
            taro.dates, [LabeledValue(value: "2010-06-12", label: "anniversary"), LabeledValue(value: "--03-20", label: "Graduation")])
        XCTAssertEqual(taro.related, [LabeledValue(value: "Hanako Yamada", label: "spouse")])
        XCTAssertEqual(
            taro.impp,
            [LabeledValue(value: "xmpp:taro@jabber.example", label: "home"), LabeledValue(value: "skype:taro.yamada", label: "work")])
        XCTAssertNil(taro.vcardProperties)
        // Written out as Google's CSV and read back, nothing is lost: not any declared field.
        taro.pronouns = "he/him"
        taro.gender = "male"
        for f in DeclaredField.all { XCTAssertTrue(f.isPresent(in: taro), "the test's contact has no \(f.name)") }
        let back = try CSVImport.read(text: CSVExport.csv([taro])).rows[0].contact.get()
        for f in ContactField.all where !["uid", "properties"].contains(f.name) {
            XCTAssertTrue(f.same(back, taro), "\(f.name): \(back) is not \(taro)")
        }
    }

    func testOutlookExportsAreReadFieldByField() throws {
        let file = CSVImport.read(text: Self.outlook)
        XCTAssertEqual(file.dialect, .outlook)
        let kate = try file.rows[0].contact.get()
        XCTAssertEqual(kate.name, "Dr. Kate Bell")
        XCTAssertEqual(kate.structuredName, StructuredName(family: "Bell", given: "Kate", prefix: "Dr."))
        XCTAssertEqual(kate.organization, "Creative Consulting")
        XCTAssertEqual(kate.title, "Producer")
        XCTAssertEqual(kate.birthday, "1980-05-14")
        XCTAssertEqual(kate.groups, ["Clients", "VIP"])
        XCTAssertEqual(kate.emails.map(\.value), ["kate-bell@mac.com", "kate@example.org"])
        XCTAssertEqual(
            kate.phones,
            [
                LabeledValue(value: "(555) 555-0001", label: "work fax"), LabeledValue(value: "(555) 564-8583", label: "work"),
                LabeledValue(value: "(415) 555-3695", label: "mobile"),
            ])
        var work = PostalAddress(
            street: "165 Davis Street\nSuite 200", locality: "Hillsborough", region: "CA", postalCode: "94010",
            country: "United States of America")
        work.label = "work"
        XCTAssertEqual(kate.addresses, [work])
        XCTAssertEqual(kate.urls.map(\.value), ["www.icloud.com"])
        XCTAssertNil(kate.vcardProperties, "every column is a field")
        XCTAssertEqual(kate.department, "Design")
        XCTAssertEqual(kate.related, [LabeledValue(value: "Daniel", label: "spouse")])
        let nobody = try file.rows[1].contact.get()
        XCTAssertEqual(nobody.name, "Nobody")
        XCTAssertNil(nobody.birthday, "0/0/00 is Outlook's none")
        XCTAssertNil(nobody.vcardProperties, "defaults are not kept")
    }

    func testAGermanOutlookExportInWindows1252() throws {
        let text = """
            Anrede,Vorname,Weitere Vornamen,Nachname,Firma,Position,Straße geschäftlich,Ort geschäftlich,Postleitzahl geschäftlich,Land/Region geschäftlich,Telefon geschäftlich,Mobiltelefon,Geburtstag,Kategorien,E-Mail-Adresse,E-Mail-Typ,Notizen\r
            ,Jürgen,,Müßig,Bäckerei Groß,Meister,Königstraße 5,Köln,50667,Deutschland,0221 123456,0171 5550199,24.12.1970,Kunden,juergen@baeckerei.example,SMTP,"Brötchen, früh"\r

            """
        let bytes = try XCTUnwrap(text.data(using: .windowsCP1252))
        XCTAssertNil(String(data: bytes, encoding: .utf8), "not UTF-8")
        let file = CSVImport.read([UInt8](bytes))
        XCTAssertEqual(file.dialect, .outlook)
        let j = try XCTUnwrap(file.rows.first).contact.get()
        XCTAssertEqual(j.name, "Jürgen Müßig")
        XCTAssertEqual(j.organization, "Bäckerei Groß")
        XCTAssertEqual(j.title, "Meister")
        XCTAssertEqual(j.addresses.first?.street, "Königstraße 5")
        XCTAssertEqual(j.addresses.first?.locality, "Köln")
        XCTAssertEqual(j.addresses.first?.label, "work")
        XCTAssertEqual(j.phones, [LabeledValue(value: "0221 123456", label: "work"), LabeledValue(value: "0171 5550199", label: "mobile")])
        XCTAssertEqual(j.birthday, "1970-12-24")
        XCTAssertEqual(j.groups, ["Kunden"])
        XCTAssertEqual(j.emails.map(\.value), ["juergen@baeckerei.example"])
        XCTAssertEqual(j.note, "Brötchen, früh")
        XCTAssertNil(j.vcardProperties)
    }

    func testEncodingsAreToldFromTheBytes() throws {
        let text = "Given Name,Family Name,E-mail 1 - Value\r\nZoë,Ångström,zoe@example.se\r\n"
        let utf16 = [UInt8]([0xFF, 0xFE]) + [UInt8](try XCTUnwrap(text.data(using: .utf16LittleEndian)))
        let utf8BOM = [UInt8]([0xEF, 0xBB, 0xBF]) + Array(text.utf8)
        let utf16BE = [UInt8](try XCTUnwrap(text.data(using: .utf16BigEndian)))
        for (name, bytes) in [("UTF-8", Array(text.utf8)), ("UTF-8 with BOM", utf8BOM), ("UTF-16 LE", utf16), ("UTF-16 BE", utf16BE)] {
            let file = CSVImport.read(bytes)
            XCTAssertEqual(file.dialect, .google, name)
            XCTAssertEqual(try file.rows.first?.contact.get().name, "Zoë Ångström", name)
        }
    }

    func testABadRowIsReportedWithItsLineAndTheOthersLand() throws {
        let text = """
            First Name,Last Name,E-mail Address
            Anna,Haro,anna@example.com
            ,,
            Bad,Row,bad@example.com,extra,cells
            "Multi
            Line",Name,ml@example.com
            Kate,Bell,kate@example.com
            "Open,Quote,never closed

            """
        let file = CSVImport.read(text: text)
        XCTAssertEqual(file.dialect, .outlook)
        let outcome = file.rows.map { row -> String in
            switch row.contact {
            case .success(let c): return "\(row.line): \(c.name)"
            case .failure(let p): return "\(row.line)! \(p.message)"
            }
        }
        XCTAssertEqual(
            outcome,
            [
                "2: Anna Haro", "3! the row has no name, organization, email or phone",
                "4! the row has 5 cells where the header names 3 columns (a quote or delimiter out of place?)", "5: Multi\nLine Name",
                "7: Kate Bell", "8! a quoted cell is never closed",
            ])
    }

    func testAFileThatIsNoContactsExportSaysSo() {
        let file = CSVImport.read(text: "date,amount\n2024-01-01,5\n")
        XCTAssertNil(file.dialect)
        guard case .failure(let p)? = file.rows.first?.contact else { return XCTFail("\(file.rows)") }
        XCTAssertEqual(p.line, 1)
        XCTAssertTrue(p.message.contains("Google or Outlook"), p.message)
    }

    func testAnExportReadsBackAsItWas() throws {
        var c = Contact(name: "José Núñez")
        c.structuredName = StructuredName(family: "Núñez", given: "José")
        c.nickname = "Pepe"
        c.birthday = "--11-23"
        c.note = "Line one\nLine \"two\", with a comma"
        c.groups = ["Friends", "Family"]
        c.organization = "Acme"
        c.title = "Engineer"
        c.emails = [LabeledValue(value: "jose@example.es", label: "home"), LabeledValue(value: "j@example.org")]
        c.phones = [
            LabeledValue(value: "+34 612 345 678", label: "mobile"), LabeledValue(value: "954 000 000", label: "Grandma's landline"),
        ]
        var a = PostalAddress(street: "Calle Sierpes 12\nPiso 2", locality: "Sevilla", postalCode: "41004", country: "Spain", label: "work")
        a.poBox = "PO 7"
        c.addresses = [a]
        c.urls = [LabeledValue(value: "https://pepe.example", label: "blog")]
        let other = Contact(name: "Only Name")
        let text = CSVExport.csv([c, other])
        XCTAssertTrue(text.hasPrefix("Name,Given Name,Additional Name,Family Name,"), text)
        let file = CSVImport.read(text: text)
        XCTAssertEqual(file.dialect, .google)
        var back = try file.rows[0].contact.get()
        XCTAssertEqual(back.emails, c.emails)
        XCTAssertEqual(back.phones, c.phones)
        XCTAssertEqual(back.addresses, c.addresses)
        XCTAssertNil(back.vcardProperties, "the formatted address is the parts again: not kept apart")
        back.uid = c.uid
        back.vcardProperties = nil
        XCTAssertEqual(back, c)
        XCTAssertEqual(try file.rows[1].contact.get().name, "Only Name")
    }

    func testAWrittenRowReadsBackWhateverItsCellsHold() {
        // A comma or a quote that a combining mark follows is one character with it: the
        // writer must still quote and double it, as the reader splits at bytes.
        let cells = ["a,\u{0301}b", "q\"\u{06DA}x", "line\nbreak", "plain", "", "semi;colon"]
        XCTAssertEqual(CSVReader.read(CSVReader.row(cells)).records.map(\.cells), [cells])
    }
}
