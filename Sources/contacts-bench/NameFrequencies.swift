import Foundation

/// Names drawn as they occur in address books: per culture, a few thousand given and family
/// names whose frequencies fall off by rank (Zipf–Mandelbrot), so that a large book holds
/// many different people called "Maria Garcia" or "Wei Wang", and a long tail of names
/// nobody else in it has. The most frequent names of each culture head its lists; the tail
/// is made of that culture's syllables, so that it reads (and folds, and sorts) like names.
struct NameFrequencies {
    struct Culture {
        var share: Int  // in a thousand contacts
        var given: [String]
        var family: [String]
        /// Family name first, no space between (Chinese, Japanese, Korean in their scripts).
        var familyFirst = false
        var joined = false
    }

    /// How many names each list holds, the head included.
    static let listSize = 3000

    let cultures: [Culture]
    private let givenWeights: [[Double]]
    private let familyWeights: [[Double]]

    init() {
        cultures = Self.make()
        givenWeights = cultures.map { Self.cumulative($0.given.count) }
        familyWeights = cultures.map { Self.cumulative($0.family.count) }
    }

    /// Rank r's weight ∝ 1 / (r + 4)^0.95: the first name of a list is about 2.5 % of it,
    /// the hundredth 0.2 %, the three thousandth 0.01 %.
    static func cumulative(_ n: Int) -> [Double] {
        var total = 0.0
        return (0..<n).map { r in
            total += 1 / pow(Double(r + 5), 0.95)
            return total
        }
    }

    /// A person's name: the culture by its share, then given and family name by frequency.
    func name(_ random: inout Corpus) -> String {
        var pick = Int(random.next() % 1000)
        var k = 0
        while k < cultures.count - 1 && pick >= cultures[k].share {
            pick -= cultures[k].share
            k += 1
        }
        let c = cultures[k]
        let given = c.given[Self.draw(givenWeights[k], &random)]
        let family = c.family[Self.draw(familyWeights[k], &random)]
        if c.joined { return family + given }
        return c.familyFirst ? "\(family) \(given)" : "\(given) \(family)"
    }

    static func draw(_ cumulative: [Double], _ random: inout Corpus) -> Int {
        let u = Double(random.next() % 1_000_000) / 1_000_000 * (cumulative.last ?? 1)
        var lo = 0
        var hi = cumulative.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if cumulative[mid] < u { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The head of each list, then made names from the culture's syllables up to `listSize`.
    static func make() -> [Culture] {
        var out: [Culture] = []
        func culture(
            _ share: Int, _ given: [String], _ family: [String], syllables: [String], familyFirst: Bool = false, joined: Bool = false
        ) {
            var seed = UInt64(out.count + 1) &* 0x9E37_79B9_7F4A_7C15
            func tail(_ head: [String], capitalized: Bool) -> [String] {
                var seen = Set(head)
                var list = head
                while list.count < listSize {
                    seed ^= seed << 13
                    seed ^= seed >> 7
                    seed ^= seed << 17
                    let n = 2 + Int(seed % 2)
                    var word = ""
                    for k in 0..<n { word += syllables[Int((seed >> (8 * UInt64(k + 1))) % UInt64(syllables.count))] }
                    if capitalized { word = word.prefix(1).uppercased() + word.dropFirst() }
                    if seen.insert(word).inserted { list.append(word) }
                }
                return list
            }
            let latin = syllables.first?.unicodeScalars.first.map { $0.isASCII } ?? true
            out.append(
                Culture(
                    share: share, given: tail(given, capitalized: latin), family: tail(family, capitalized: latin),
                    familyFirst: familyFirst,
                    joined: joined))
        }
        culture(
            380,
            [
                "James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda", "William", "Elizabeth", "David", "Barbara",
                "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Charles", "Karen", "Christopher", "Nancy", "Daniel", "Lisa",
                "Matthew", "Betty", "Anthony", "Margaret", "Mark", "Sandra", "Emily", "Ashley", "Andrew", "Kimberly", "Joshua", "Donna",
            ],
            [
                "Smith", "Johnson", "Williams", "Brown", "Jones", "Miller", "Davis", "Wilson", "Anderson", "Taylor", "Thomas", "Moore",
                "Jackson", "Martin", "Lee", "Thompson", "White", "Harris", "Clark", "Lewis", "Robinson", "Walker", "Young", "Allen", "King",
                "Wright", "Scott", "Green", "Baker", "Adams", "Nelson", "Hill", "Campbell", "Mitchell", "Roberts", "Carter", "Phillips",
            ], syllables: ["an", "er", "son", "ley", "ton", "bar", "wood", "ell", "mor", "rick", "ham", "ford", "ash", "ing", "den", "ly"])
        culture(
            160,
            [
                "María", "José", "Juan", "Ana", "Carlos", "Lucía", "Luis", "Carmen", "Javier", "Isabel", "Miguel", "Sofía", "Antonio",
                "Laura", "Manuel", "Marta", "Francisco", "Elena", "Jorge", "Paula", "Alejandro", "Rosa", "Pedro", "Cristina", "Diego",
            ],
            [
                "García", "Rodríguez", "González", "Fernández", "López", "Martínez", "Sánchez", "Pérez", "Gómez", "Martín", "Jiménez",
                "Ruiz", "Hernández", "Díaz", "Moreno", "Muñoz", "Álvarez", "Romero", "Alonso", "Gutiérrez", "Navarro", "Torres",
                "Domínguez",
            ], syllables: ["ra", "mi", "ez", "al", "ve", "do", "ña", "rí", "co", "to", "ber", "gue", "la", "nan", "sa", "qui"])
        culture(
            90,
            [
                "Hans", "Anna", "Peter", "Ursula", "Klaus", "Monika", "Jürgen", "Sabine", "Stefan", "Petra", "Michael", "Andrea", "Thomas",
                "Katrin", "Uwe", "Birgit", "Günter", "Renate", "Matthias", "Jörg",
            ],
            [
                "Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Schulz", "Hoffmann", "Schäfer", "Koch",
                "Bauer", "Richter", "Klein", "Wolf", "Schröder", "Neumann", "Schwarz", "Zimmermann", "Braun", "Krüger", "Hofmann",
            ], syllables: ["berg", "mann", "ler", "sch", "ö", "ha", "ke", "ü", "ri", "wald", "stein", "dorf", "el", "tz", "bach", "au"])
        culture(
            70,
            [
                "Marie", "Jean", "Pierre", "Camille", "Michel", "Chloé", "Philippe", "Léa", "Alain", "Manon", "Nicolas", "Inès", "François",
                "Élodie", "Olivier", "Hélène", "Sébastien", "Amélie",
            ],
            [
                "Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand", "Leroy", "Moreau", "Simon", "Laurent",
                "Lefèvre", "Michel", "Garnier", "Rousseau", "Fontaine", "Chevalier",
            ], syllables: ["mar", "el", "ette", "ier", "beau", "che", "lan", "é", "gre", "mont", "vil", "rou", "ain", "deau", "pré", "ois"])
        culture(
            70,
            ["伟", "芳", "娜", "秀英", "敏", "静", "丽", "强", "磊", "军", "洋", "勇", "艳", "杰", "娟", "涛", "明", "超", "秀兰", "霞"],
            ["王", "李", "张", "刘", "陈", "杨", "黄", "赵", "吴", "周", "徐", "孙", "马", "朱", "胡", "郭", "何", "高", "林", "罗"],
            syllables: ["华", "建", "国", "文", "海", "平", "玉", "志", "春", "小", "红", "金", "宇", "晓", "思", "嘉"], joined: true)
        culture(
            60,
            ["Wei", "Fang", "Na", "Min", "Jing", "Li", "Qiang", "Lei", "Jun", "Yang", "Yong", "Yan", "Jie", "Juan", "Tao", "Ming", "Chao"],
            ["Wang", "Li", "Zhang", "Liu", "Chen", "Yang", "Huang", "Zhao", "Wu", "Zhou", "Xu", "Sun", "Ma", "Zhu", "Hu", "Guo", "He"],
            syllables: ["zh", "ang", "xi", "ao", "ming", "hua", "qi", "yu", "ong", "lin", "jia", "en", "shu", "feng", "bo", "ye"])
        culture(
            40,
            ["翔", "陽菜", "大翔", "結衣", "蓮", "葵", "悠真", "凛", "太郎", "花子", "健", "美咲", "誠", "愛"],
            ["佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "山本", "中村", "小林", "加藤", "吉田", "山田", "佐々木", "山口"],
            syllables: ["木", "田", "川", "山", "本", "野", "井", "村", "子", "藤", "原", "美", "大", "松", "島", "沢"], joined: true)
        culture(
            60,
            [
                "Aarav", "Priya", "Rahul", "Ananya", "Amit", "Pooja", "Vikram", "Neha", "Arjun", "Divya", "Rohan", "Kavya", "Sanjay",
                "Meera",
            ],
            ["Sharma", "Patel", "Singh", "Kumar", "Gupta", "Reddy", "Iyer", "Nair", "Rao", "Mehta", "Joshi", "Shah", "Das", "Verma"],
            syllables: ["ra", "an", "dh", "esh", "ka", "pr", "ia", "sh", "vi", "ku", "mar", "ee", "ja", "nd", "th", "la"])
        culture(
            30,
            ["Mohammed", "Fatima", "Ahmed", "Aisha", "Ali", "Mariam", "Omar", "Layla", "Hassan", "Noor", "Youssef", "Salma"],
            ["Al-Sayed", "Haddad", "Khalil", "Nasser", "Hussein", "Mansour", "Saleh", "Ibrahim", "Abbas", "Hamdan", "Farouk"],
            syllables: ["al", "ha", "mi", "za", "ra", "di", "sa", "ka", "ri", "ma", "ni", "ba", "ya", "fa", "ou", "id"])
        culture(
            20,
            ["Иван", "Ольга", "Дмитрий", "Анна", "Сергей", "Елена", "Алексей", "Наталья", "Андрей", "Татьяна"],
            ["Иванов", "Смирнов", "Кузнецов", "Попов", "Васильев", "Петров", "Соколов", "Михайлов", "Новиков", "Фёдоров"],
            syllables: ["ов", "ин", "ев", "ко", "ра", "ма", "ни", "ло", "ва", "ск", "ий", "ст", "ор", "ан", "ел", "ль"])
        culture(
            10,
            ["Minh", "Linh", "Anh", "Hùng", "Thảo", "Tuấn", "Hương", "Dũng"],
            ["Nguyễn", "Trần", "Lê", "Phạm", "Hoàng", "Phan", "Vũ", "Đặng", "Bùi", "Đỗ"],
            syllables: ["ng", "uy", "ễn", "tr", "ần", "ph", "ạm", "ho", "àng", "vũ", "đặ", "bù", "thị", "văn", "hư", "ơng"],
            familyFirst: true)
        culture(
            10,
            ["민준", "서연", "지훈", "서윤", "현우", "지우", "도윤", "하은"],
            ["김", "이", "박", "최", "정", "강", "조", "윤", "장", "임"],
            syllables: ["민", "서", "지", "현", "우", "윤", "하", "은", "준", "연", "수", "영", "성", "진", "혜", "경"], joined: true)
        return out
    }
}
