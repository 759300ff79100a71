import Essentials
import Foundation
import LocalStore

// The stored text of a snapshot (`instance_status.snapshot`) written directly (issue 19, case
// 1): the same bytes as `JSONEncoder` with `.sortedKeys` and `.iso8601` dates gives for its
// synthesized `Encodable` (compact, slashes escaped as `\/`, `nil` left out), without building
// the encoder's tree for each of a refresh's thousand devices (Essentials' `JSONWriter` in its
// `.stored` format).
// `SnapshotTextTests` compares the two for every field and odd values; where the writer steps
// aside (`isUnwritable`), the encoder writes the text.

extension DeviceSnapshot {
  /// The stored JSON text, written directly; `nil` when the writer steps aside.
  func writtenJSONText() -> String? {
    var json = JSONWriter(format: .stored, capacity: 512)
    json.object { json in
      json.member("dataActive", dataActive)
      json.member("iccid", iccid)
      json.member("imei", imei)
      if let latestSMS {
        json.key("latestSMS")
        json.object { json in
          json.member("date", latestSMS.date)
          json.member("direction", latestSMS.direction)
          json.member("maskedBody", latestSMS.maskedBody)
          json.member("peer", latestSMS.peer)
        }
      }
      json.member("memoryPercent", memoryPercent)
      json.member("model", model)
      if let notes {
        json.key("notes")
        json.array(notes) { json, note in
          json.object { json in
            json.key("arguments")
            json.object(note.arguments)
            json.member("part", note.part.rawValue)
            json.member("reasonKey", note.reasonKey)
          }
        }
      }
      json.member("operatorName", operatorName)
      json.key("phoneNumbers")
      json.array(phoneNumbers) { json, number in json.string(number) }
      json.member("registration", registration)
      json.member("signalPercent", signalPercent)
      json.member("temperatureCelsius", temperatureCelsius)
      json.member("uptime", uptime)
    }
    guard !json.isUnwritable else { return nil }
    return String(decoding: json.bytes, as: UTF8.self)
  }
}
