import ContactsCore
import ContactsSupport
import Foundation

/// Address books shaped like people's: names at their real frequencies (`NameFrequencies`),
/// 1–3 phones with types, 0–2 emails, an address on a third, organizations, titles,
/// birthdays, notes with a long tail, categories and urls.
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
        return c
    }
}
