import ContactsCore
import Foundation

/// The far end of namesakes: the realistic corpus with every name drawn from small lists (40
/// given names, 40 family names), so that most people share their full name with hundreds of
/// others, and a note of 6 to 60 words on every card (`BENCH_CORPUS=namesakes`). What such a
/// book costs the realistic one does not: search and sort over long runs of one name, the
/// duplicates' name blocks, larger cards.
struct NamesakeCorpus {
    static let given = [
        "James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda", "David", "Elizabeth", "William", "Barbara",
        "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Carlos", "Maria", "José", "Ana", "Wei", "Li", "Hiroshi", "Yuki",
        "Ahmed", "Fatima", "Olga", "Ivan", "Priya", "Rahul", "Anna", "Lukas", "Sophie", "Jean", "Chloé", "Kwame", "Amara", "Zoë",
    ]
    static let family = [
        "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez", "Hernández", "López",
        "González", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee", "Müller", "Schmidt", "Schneider",
        "Dubois", "Bernard", "Rossi", "Russo", "Wang", "Zhang", "Chen", "Tanaka", "Suzuki", "Kim", "Park", "Nguyen", "Kumar", "Singh",
        "Ivanov", "Silva",
    ]
    static let words = [
        "met", "at", "the", "conference", "in", "spring", "ask", "about", "project", "kids", "school", "neighbour", "plumber",
        "recommended", "by", "colleague", "birthday", "party", "call", "after", "work", "prefers", "email", "old", "friend", "from",
        "university", "climbing", "gym", "doctor", "appointment", "tuesday", "owes", "book", "lent", "garden", "tools", "vegetarian",
    ]

    var realistic = RealisticCorpus()
    var random = Corpus(seed: 0x7A5E_5A3E_0000_0001)

    mutating func contact(_ i: Int) -> Contact {
        var c = realistic.contact(i)
        let (g, f) = (random.pick(Self.given), random.pick(Self.family))
        c.name = "\(g) \(f)"
        c.structuredName = StructuredName(family: f, given: g)
        let count = 6 + Int(random.next() % 55)
        c.note = (0..<count).map { _ in random.pick(Self.words) }.joined(separator: " ")
        return c
    }
}
