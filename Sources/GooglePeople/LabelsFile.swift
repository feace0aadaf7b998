import ContactsSupport
import Foundation
import JSONCore

/// The labels of a Google account as last read, kept in a file beside the store so that a
/// sync that finds nothing changed asks Google one thing only.
enum LabelsFile {
    static func read(_ path: String) -> (labels: [String: String], read: Date)? {
        guard let data = FileManager.default.contents(atPath: path), let o = try? JSONParser.parse([UInt8](data)).objectValue,
            let read = o["read"]?.doubleValue, let labels = o["labels"]?.objectValue
        else { return nil }
        var out: [String: String] = [:]
        for m in labels { if let name = m.value.stringValue { out[m.key] = name } }
        return (out, Date(timeIntervalSince1970: read))
    }

    static func write(_ path: String, labels: [String: String], read: Date) {
        var o = JSONObject()
        for (resource, name) in labels.sorted(by: { $0.key < $1.key }) { o[resource] = .string(name) }
        let text = JSONWriter.string(.object(["read": .double(read.timeIntervalSince1970), "labels": .object(o)]))
        try? FileIO.writeAtomically(path, Array(text.utf8))
    }
}
