import ContactsSupport
import Foundation
import VCard

/// Photos between cards and the photo store: a card's inline photo leaves it to be stored
/// once by content, and comes back into it on export.
extension VCardMapping {
    /// A photo `fill` decoded: which property it came from, and its bytes.
    struct DecodedPhoto {
        var index: Int
        var data: PhotoData
    }

    /// Replaces each PHOTO that holds the contact's photo. The first is the one `source` says
    /// (already decoded) when the caller knows it, else the first whose bytes have the photo's
    /// hash; later ones match by their bytes.
    private static func detach(_ c: inout Contact, source: DecodedPhoto?) -> PhotoData? {
        guard let hash = c.photo?.hash, var props = c.vcardProperties else { return nil }
        var photo: PhotoData?
        for i in props.indices where props[i].name == "PHOTO" {
            guard case .raw = props[i].value else { continue }
            let decoded = source.flatMap { $0.index == i ? $0.data : nil } ?? PhotoData.decode(props[i])
            guard let data = decoded else { continue }
            let matches = photo.map { $0.bytes == data.bytes } ?? source.map { $0.index == i } ?? (data.hash == hash)
            guard matches else { continue }
            props[i] = storedPhotoProperty(hash: hash, mimeType: data.mimeType, keeping: props[i].parameters)
            photo = photo ?? data
        }
        c.vcardProperties = props
        return photo
    }

    /// The photo a card carries, if any (its first PHOTO with a value).
    public static func photo(in card: VCard) -> PhotoReference? {
        card.all("PHOTO").lazy.compactMap(photoReference).first
    }

    static func photoReference(_ p: VCardProperty) -> PhotoReference? {
        var ignored: PhotoData?
        return photoReference(p, decoded: &ignored)
    }

    /// The photo a PHOTO property names, and its bytes when it carries them.
    static func photoReference(_ p: VCardProperty, decoded: inout PhotoData?) -> PhotoReference? {
        if let (hash, mimeType) = storedPhoto(p) { return .stored(hash: hash, mimeType: mimeType, width: nil, height: nil) }
        guard case .raw(let r) = p.value, !r.isEmpty else { return nil }
        if let data = PhotoData.decode(p) {
            decoded = data
            return .stored(hash: ContentAddress.of(data.bytes), mimeType: data.mimeType, width: nil, height: nil)
        }
        var compact = r.filter { !$0.isWhitespace }
        if compact.hasPrefix("data:"), let comma = compact.firstIndex(of: ",") { compact = String(compact[compact.index(after: comma)...]) }
        if r.hasPrefix("data:") || !compact.utf8.contains(UInt8(ascii: ":")) {
            // Inline data that does not decode: kept as it came (in the card), named by content.
            return .stored(hash: ContentAddress.of(Array(compact.utf8)), mimeType: "application/octet-stream", width: nil, height: nil)
        }
        return .url(r)
    }

    /// Takes the bytes of the contact's photo out of its card: that PHOTO keeps its place and
    /// its other parameters, and names its content instead of carrying it. Returns the photo,
    /// to be stored by content. (Any further PHOTO stays in the card as it came.)
    public static func detachPhoto(_ c: inout Contact) -> PhotoData? { detach(&c, source: nil) }

    /// The contact a card describes with its photo taken out, as an import stores it: the
    /// photo's bytes are decoded once, by `contact(from:)`, and hashed once.
    public static func contactWithPhoto(from card: VCard) throws(CardError) -> (contact: Contact, photo: PhotoData?) {
        var decoded: DecodedPhoto?
        var c = try contact(from: card, decodedPhoto: &decoded)
        // A photo that named no bytes (a link, a stored reference) has nothing to take out.
        guard let decoded else { return (c, nil) }
        let photo = detach(&c, source: decoded)
        return (c, photo)
    }

    /// A PHOTO whose bytes are in the photo store. Its value is structured text, which a
    /// parsed PHOTO never is, so no card can pass one off as a reference.
    static func storedPhotoProperty(hash: String, mimeType: String, keeping parameters: [VCardParameter] = []) -> VCardProperty {
        let kept = parameters.filter { param in
            guard let name = param.name else { return false }
            switch name {
            case "ENCODING", "VALUE", "MEDIATYPE": return false
            case "TYPE": return !param.values.contains { ImageFormat.mimeType(vCardType: $0.uppercased()) != nil }
            default: return true
            }
        }
        return VCardProperty(name: "PHOTO", parameters: kept, value: .text([[hash], [mimeType]]))
    }

    static func storedPhoto(_ p: VCardProperty) -> (hash: String, mimeType: String)? {
        guard p.name == "PHOTO", case .text(let parts) = p.value, parts.count == 2, let hash = parts[0].first,
            hash.hasPrefix(ContentAddress.prefix)
        else { return nil }
        return (hash, parts[1].first ?? "application/octet-stream")
    }

    /// The properties with each stored photo's bytes put back inline (`ENCODING=b` with a
    /// TYPE; the 4.0 writer turns that into a data URI). A photo whose bytes cannot be had
    /// is left out.
    public static func attachPhotos(_ props: [VCardProperty], bytes: (String) -> [UInt8]?) -> [VCardProperty] {
        guard props.contains(where: { storedPhoto($0) != nil }) else { return props }
        return props.compactMap { p in
            guard let (hash, mimeType) = storedPhoto(p) else { return p }
            guard let data = bytes(hash) else { return nil }
            var out = p
            out.parameters.append(VCardParameter("ENCODING", ["b"]))
            if let sub = mimeType.split(separator: "/").last, mimeType.hasPrefix("image/") {
                out.parameters.append(VCardParameter("TYPE", [sub.uppercased()]))
            }
            out.value = .raw(Data(data).base64EncodedString())
            return out
        }
    }
}
