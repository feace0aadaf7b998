import JSONCore
import PhoneNumbers

extension Contact {
    /// What each phone is as a number, read in the region numbers without a country code
    /// belong to (`PhoneRegion.current`).
    public func phoneKeys() -> [PhoneKeys] { phones.map { PhoneKeys($0.value, region: PhoneRegion.current) } }
}

extension LabeledValue {
    /// Phones as the API shows them: as entered, with what they are as numbers (`e164` and
    /// `type` null for text that is no number).
    static func buildPhones(_ key: StaticString, _ list: [LabeledValue], into b: inout some JSONBuilding) {
        b.beginArray(key)
        for v in list {
            let number = PhoneDescriptions.of(v.value, region: PhoneRegion.current)
            b.beginObject(nil)
            b.string("value", v.value)
            b.string("label", v.label)
            b.string("e164", number.e164)
            b.string("type", number.type?.rawValue)
            b.endObject()
        }
        b.endArray()
    }
}
