import ContactsCore
import PhoneNumbers

/// What the search figures ask, by class, and whole numbers of the corpus written as other
/// people write them: what caller ID asks and a search for a pasted number gives.
struct QueryClasses {
    let numberForms: [String]
    let classes: [(String, [String])]

    init(_ contacts: [Contact], uniform: Bool = false) {
        let count = contacts.count
        // Whole numbers of three contacts with a phone, early, halfway and late in the corpus.
        let numbers = [17, count / 2, count - 3].compactMap { i -> String? in
            let phoned = contacts[min(max(i, 0), count - 1)...].first { !$0.phones.isEmpty } ?? contacts.first { !$0.phones.isEmpty }
            let d = PhoneDigits.of(phoned?.phones.first?.value ?? "")
            return d.count == 11 ? String(d.dropFirst()) : d.count == 10 ? d : nil
        }
        numberForms = numbers.enumerated().map { k, d -> String in
            let (a, b, c) = (d.prefix(3), d.dropFirst(3).prefix(3), d.suffix(4))
            return ["(\(a)) \(b)-\(c)", "\(a).\(b).\(c)", "+1 \(a)\(b)\(c)"][k % 3]
        }
        if uniform {
            classes = [
                ("word", ["appleseed", "garcia", "muller", "kowalski", "johansson"]),
                ("email fragment", ["bell.12", "@work.exa", "smith.99"]),
                ("phone digits", ["5551234", "555 12", "(012) 34"]),
                ("phone number", numberForms),
                ("one character", ["a", "z", "é"]),
                ("two characters", ["an", "zo", "ch"]),
                ("CJK", ["张", "小龙", "山田"]),
            ]
            return
        }
        // Parts of numbers the corpus holds, as someone types what they remember of one.
        let digits =
            numbers.map { d in String(d.suffix(7)) } + numbers.prefix(1).map { d in "(\(d.prefix(3))) \(d.dropFirst(3).prefix(2))" }
        classes = [
            ("word", ["smith", "garcia", "muller", "nguyen", "sharma", "dubois"]),
            ("email fragment", ["smith.", "@gmx.d", "maria.garcia", "gmail.co"]),
            ("phone digits", digits),
            ("phone number", numberForms),
            ("one character", ["a", "z", "é"]),
            ("two characters", ["an", "zo", "ch"]),
            ("CJK", ["王", "小", "山田"]),
        ]
    }
}
