import ContactsCore
import ContactsSupport
import Foundation
import VCard

/// Address books shaped like people's: names at their real frequencies (`NameFrequencies`),
/// 1–3 phones with types, 0–2 emails, an address on a third, organizations, titles,
/// birthdays, notes with a long tail, categories and urls, a photo on one in a hundred: as
/// vCard 3.0, some 400 bytes a card with a long tail. The bench's main corpus.
struct RealisticCorpus {
    static let names = NameFrequencies()
    static let providers = [
        "gmail.com", "yahoo.com", "outlook.com", "hotmail.com", "icloud.com", "gmx.de", "web.de", "orange.fr", "qq.com",
    ]
    static let companies = [
        "Northwind", "Contoso", "Fabrikam", "Tailspin Toys", "Wingtip", "Adventure Works", "Litware", "Proseware", "Lucerne Publishing",
        "Coho Winery", "Trey Research", "Margie's Travel", "Alpine Ski House", "Blue Yonder Airlines", "City Power & Light",
    ]
    static let titles = ["Engineer", "Manager", "Director", "Consultant", "Nurse", "Teacher", "Designer", "Accountant", "Sales", "Dentist"]
    static let streets = ["Main St", "Oak Ave", "Calle Mayor", "Hauptstraße", "Rue de la Paix", "Elm St", "Gran Vía", "Park Lane"]
    static let cities = ["Springfield", "Madrid", "Berlin", "Paris", "Seattle", "São Paulo", "München", "Lyon", "Austin", "Boston"]
    static let groups = ["Family", "Work", "Friends", "School", "Climbing", "Neighbours", "Doctors", "Book Club"]

    var random: Corpus

    init(seed: UInt64 = 0x2545_F491_4F6C_DD1D) { random = Corpus(seed: seed) }

    mutating func roll(_ percent: UInt64) -> Bool { random.next() % 100 < percent }

    mutating func contact(_ i: Int) -> Contact {
        let name = Self.names.name(&random)
        var c = Contact(name: name)
        let words = name.split(separator: " ")
        if words.count == 2 { c.structuredName = StructuredName(family: String(words[1]), given: String(words[0])) }
        // One in six came from mail alone: an email and no phone.
        let mailOnly = roll(16)
        let phones = mailOnly ? 0 : roll(60) ? 1 : roll(75) ? 2 : 3
        let labels = ["mobile", "home", "work"]
        for k in 0..<phones {
            let area = 200 + Int(random.next() % 780)
            let number = String(format: "%03d-%04d", 200 + Int(random.next() % 800), Int(random.next() % 10_000))
            c.phones.append(LabeledValue(value: roll(50) ? "+1 (\(area)) \(number)" : "(\(area)) \(number)", label: labels[k]))
        }
        let handle = String(
            SearchFolding.fold(name).filter { ($0.isLetter && $0.isASCII) || $0 == " " }.replacingOccurrences(of: " ", with: "."))
        let user = handle.isEmpty ? "user\(i)" : handle
        let emails = mailOnly ? 1 : roll(30) ? 0 : roll(80) ? 1 : 2
        for k in 0..<emails {
            let domain = k == 0 ? random.pick(Self.providers) : random.pick(Self.companies).lowercased().filter(\.isLetter) + ".com"
            c.emails.append(LabeledValue(value: "\(user)\(random.next() % 1000)@\(domain)", label: k == 0 ? "home" : "work"))
        }
        if roll(33) {
            c.addresses = [
                PostalAddress(
                    street: "\(1 + random.next() % 400) \(random.pick(Self.streets))", locality: random.pick(Self.cities),
                    postalCode: String(10_000 + random.next() % 89_999), label: "home")
            ]
        }
        if roll(40) { c.organization = random.pick(Self.companies) }
        if roll(25) { c.title = random.pick(Self.titles) }
        if roll(15) {
            c.birthday = String(
                format: "%04d-%02d-%02d", 1940 + Int(random.next() % 65), 1 + Int(random.next() % 12), 1 + Int(random.next() % 28))
        }
        if roll(10) {
            // Most notes are a line; one in ten is a paragraph or more.
            let sentence = "Met at the conference in \(random.pick(Self.cities)); ask about the project. "
            c.note = String(repeating: sentence, count: roll(10) ? 3 + Int(random.next() % 30) : 1)
        }
        if roll(20) { c.groups = [random.pick(Self.groups)] }
        if roll(10) { c.urls = [LabeledValue(value: "https://\(user.isEmpty ? "example" : user).example.net/", label: nil)] }
        c.favorite = roll(3)
        // Drawn apart from the rest, which stays as it was drawn before these were added.
        var more = Corpus(seed: 0x51_7CC1_B727_220A ^ UInt64(i + 1) &* 0x9E37_79B9_7F4A_7C15)
        shareNumbers(&c, &more)
        producerLines(&c, &more)
        Corpus.addPhoto(&c, i)
        return c
    }

    /// Numbers several people have: a family's landline (one in ten with a home number have
    /// the one of a household of their family name), a company's switchboard (three in ten
    /// of those at a company have it as their work number).
    func shareNumbers(_ c: inout Contact, _ random: inout Corpus) {
        if let k = c.phones.firstIndex(where: { $0.label == "home" }), let family = c.structuredName?.family, random.next() % 10 == 0 {
            let household = Self.hash(family) &+ random.next() % 3
            c.phones[k].value = Self.number(household)
        }
        if let company = c.organization, random.next() % 10 < 3 {
            let line = LabeledValue(value: Self.number(Self.hash(company)), label: "work")
            if let k = c.phones.firstIndex(where: { $0.label == "work" }) { c.phones[k] = line } else { c.phones.append(line) }
        }
    }

    /// What the programs that wrote the cards add: a UID and the time of the last change on
    /// every card; Apple's product line and its own id on a third, Google's product line and
    /// street addresses with a region and country on others.
    func producerLines(_ c: inout Contact, _ random: inout Corpus) {
        c.uid = Self.uuid(&random)
        let producer = random.next() % 100
        var lines: [VCardProperty] = []
        if producer < 35 {
            lines.append(VCardProperty(name: "PRODID", value: .raw("-//Apple Inc.//iPhone OS 17.5.1//EN")))
            lines.append(VCardProperty(name: "X-ABUID", value: .raw(Self.uuid(&random) + ":ABPerson")))
        } else if producer < 75 {
            lines.append(VCardProperty(name: "PRODID", value: .raw("-//Google Inc.//Google Contacts//EN")))
            // Google puts every contact of its list in "myContacts".
            c.groups.insert("myContacts", at: 0)
        }
        for k in c.addresses.indices where producer < 75 {
            c.addresses[k].region = random.pick(Self.regions)
            c.addresses[k].country = random.pick(Self.countries)
        }
        if c.note == nil, random.next() % 100 < 8 {
            // Notes people keep: a line or a few, one in five a page.
            let line = "Gate code \(1000 + random.next() % 9000); prefers calls after \(5 + random.next() % 4) pm. "
            c.note = String(repeating: line, count: random.next() % 5 == 0 ? 10 + Int(random.next() % 40) : 1 + Int(random.next() % 4))
        }
        if c.organization != nil, random.next() % 2 == 0 { c.department = random.pick(Self.departments) }
        if random.next() % 100 < 8 { c.nickname = c.structuredName.map { String($0.given.prefix(3)) } }
        let seconds = 1_500_000_000 + Int(random.next() % 250_000_000)
        lines.append(VCardProperty(name: "REV", value: .raw(Timestamp.format(Int64(seconds) * 1000))))
        c.vcardProperties = (c.vcardProperties ?? []) + lines
    }

    static let departments = ["Sales", "Engineering", "Human Resources", "Finance", "Customer Support", "Marketing", "Legal"]
    static let regions = ["CA", "NY", "Bayern", "Île-de-France", "Comunidad de Madrid", "TX", "MA", "WA", "Auvergne-Rhône-Alpes"]
    static let countries = ["United States", "Deutschland", "France", "España", "Brasil", "United Kingdom"]

    /// A random UUID, as producers write them.
    static func uuid(_ random: inout Corpus) -> String {
        let (a, b) = (random.next(), random.next())
        let hex = String(format: "%016llX%016llX", a, b)
        let h = Array(hex)
        return [h[0..<8], h[8..<12], h[12..<16], h[16..<20], h[20..<32]].map { String($0) }.joined(separator: "-")
    }

    /// A North American number from a number.
    static func number(_ n: UInt64) -> String {
        String(format: "(%03d) %03d-%04d", 200 + Int(n % 780), 200 + Int((n / 780) % 800), Int((n / 624_000) % 10_000))
    }

    /// A stable hash of a text (FNV-1a): the same name gives the same household everywhere.
    static func hash(_ text: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }
}
