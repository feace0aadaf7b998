import ContactsCore
import ContactsSupport
import Foundation
import Thumbnails
import VCard
import VipsImages

/// A deterministic corpus of realistic contacts: Latin names with diacritics, some Cyrillic
/// and CJK names, several phones and emails, organizations and groups.
struct Corpus {
    static let given = [
        "Anna", "Björn", "Chloé", "Dmitri", "Émile", "Fatima", "Günter", "Hiroshi", "Inès", "José", "Kate", "Łucja", "Mário", "Nuño",
        "Olga", "Pál", "Quentin", "Renée", "Søren", "Tomás", "Ursula", "Václav", "Wiktor", "Xavier", "Yusuf", "Zoë", "John", "Mary",
        "James", "Linda", "Robert", "Patricia", "Michael", "Jennifer", "David", "Elizabeth",
    ]
    static let family = [
        "Appleseed", "Bell", "Haro", "Ångström", "Nowak", "Müller", "Øberg", "Suzuki", "García", "Smith", "Dubois", "Kowalski", "Rossi",
        "Novák", "Fernández", "Johansson", "O'Brien", "Nguyễn", "Dvořák", "Šimić", "Yılmaz", "Papadopoulos", "Jones", "Brown", "Taylor",
        "Wilson", "Martin", "Lefèvre", "Schröder", "Żukowski",
    ]
    static let cyrillic = ["Иван Петров", "Ольга Смирнова", "Дмитрий Иванов", "Анна Кузнецова"]
    static let cjk = ["张三丰", "李小龙", "王芳", "刘洋", "陈静", "山田太郎", "佐藤花子", "김민준", "이서연"]
    static let orgs = [
        "Acme", "Initech", "Globex", "Umbrella", "Stark Industries", "Wayne Enterprises", "Soylent", "Hooli", "Vandelay Industries",
    ]
    static let groups = ["Family", "Work", "Friends", "Book Club", "Climbing", "Neighbours"]

    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15

    mutating func next() -> UInt64 {
        seed ^= seed << 13
        seed ^= seed >> 7
        seed ^= seed << 17
        return seed
    }

    mutating func pick<T>(_ a: [T]) -> T { a[Int(next() % UInt64(a.count))] }

    mutating func contact(_ i: Int) -> Contact {
        let r = next() % 100
        let name: String
        if r < 3 {
            name = pick(Self.cjk) + (r == 0 ? "" : String(i % 100))
        } else if r < 5 {
            name = pick(Self.cyrillic)
        } else {
            name = "\(pick(Self.given)) \(pick(Self.family))"
        }
        var c = Contact(name: name)
        let handle = SearchFolding.fold(name).filter { $0.isLetter && $0.isASCII }
        c.emails = [LabeledValue(value: "\(handle.prefix(12)).\(i)@example.com", label: "home")]
        if next() % 3 == 0 { c.emails.append(LabeledValue(value: "\(handle.prefix(6))\(i)@work.example.org", label: "work")) }
        c.phones = [LabeledValue(value: "+1 555 \(100 + Int(next() % 900))-\(1000 + i % 9000)", label: "mobile")]
        if next() % 2 == 0 {
            c.phones.append(LabeledValue(value: "(0\(next() % 90 + 10)) \(next() % 9_000_000 + 1_000_000)", label: "home"))
        }
        if next() % 4 == 0 { c.organization = pick(Self.orgs) }
        if next() % 5 == 0 { c.groups = [pick(Self.groups)] }
        c.favorite = next() % 20 == 0
        Self.addPhoto(&c, i)
        return c
    }

    /// One contact in a hundred arrives with a photo, as a phone's export carries it.
    static func addPhoto(_ c: inout Contact, _ i: Int) {
        guard i % 100 == 42 else { return }
        let jpeg = photos[(i / 100) % photos.count]
        c.vcardProperties =
            (c.vcardProperties ?? []) + [
                VCardProperty(
                    name: "PHOTO", parameters: [VCardParameter("ENCODING", ["b"]), VCardParameter("TYPE", ["JPEG"])],
                    value: .raw(Data(jpeg).base64EncodedString()))
            ]
        c.photo = .stored(hash: ContentAddress.of(jpeg), mimeType: "image/jpeg", width: nil, height: nil)
    }

    /// Distinct small photos (noise, so they do not compress away), shared round-robin.
    static let photos: [[UInt8]] = (0..<64).map { seed in (try? Images.synthesize(width: 120, height: 120, seed: seed + 1)) ?? [] }
}
