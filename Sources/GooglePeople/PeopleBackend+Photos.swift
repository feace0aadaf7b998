import CardDAV
import ContactsCore
import ContactsSync
import Foundation
import JSONCore
import VCard

/// People's photos: read from the URL Google gives (not its default avatar) into the card, and
/// sent with `updateContactPhoto` / `deleteContactPhoto` when the card's photo changed here.
extension PeopleBackend {
    /// A person's own photo, read; nil when it has none (or only Google's default), or it
    /// could not be read (the card then goes without it, and the next change brings it).
    func photo(of person: JSONObject) -> [UInt8]? {
        let photos = PersonMapping.list(person, "photos").filter { $0["default"]?.boolValue != true }
        guard let own = photos.first(where: { $0["metadata"]?["primary"]?.boolValue == true }) ?? photos.first,
            let text = own["url"]?.stringValue, let url = URL(string: text)
        else { return nil }
        return try? client.photoBytes(url)
    }

    /// A person as a card, with its photo.
    func render(_ person: JSONObject) -> RemoteCard { Self.card(person, labels: currentLabels(), photo: photo(of: person)) }

    /// The bytes of a card's photo (`PHOTO` inline, base64 or a `data:` URI).
    static func photoBytes(_ card: VCard) -> [UInt8]? {
        guard let p = card.first("PHOTO") else { return nil }
        var text = p.text.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("data:"), let comma = text.firstIndex(of: ",") { text = String(text[text.index(after: comma)...]) }
        return Data(base64Encoded: text, options: .ignoreUnknownCharacters).map { [UInt8]($0) }
    }

    /// What a write does to the photo: nothing, a new one, or none any more.
    enum PhotoChange {
        case none
        case set([UInt8])
        case remove
    }

    static func photoChange(_ w: ReadWrite) -> PhotoChange {
        switch (w.basePhoto, w.photo) {
        case (let b, let n?) where b != n: return .set(n)
        case (.some, nil): return .remove
        default: return .none
        }
    }

    /// Sends a written person's photo change; the answer is then the person as it ends.
    func sendPhoto(_ change: PhotoChange, of href: String, _ answer: inout Result<WriteResult, DAVError>?) {
        guard case .success(.written(let name, _))? = answer else { return }
        let person: JSONObject
        do {
            switch change {
            case .none: return
            case .set(let bytes): person = try client.updatePhoto(name, bytes)
            case .remove: person = try client.deletePhoto(name)
            }
        } catch {
            answer = .failure(error)
            return
        }
        let card = render(person)
        if name != href { state.withLock { $0.written[name] = card } }
        answer = .success(.written(href: name, etag: card.etag))
    }
}
