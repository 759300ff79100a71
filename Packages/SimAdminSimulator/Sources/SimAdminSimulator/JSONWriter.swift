import Essentials

extension JSONWriter {
  /// An SMS row in SimAdmin's field order (`id`, `direction`, `phone_number`, `content`,
  /// `timestamp`, `status`, `pdu`); the content's raw bytes when the row has them.
  mutating func message(_ message: SimulatedSMS) {
    object { json in
      json.key("id")
      json.int(message.id)
      json.key("direction")
      json.string(message.direction)
      json.key("phone_number")
      json.string(message.phoneNumber)
      json.key("content")
      if let raw = message.contentBytes {
        json.string(bytes: raw)
      } else {
        json.string(message.content)
      }
      json.key("timestamp")
      json.string(message.timestamp)
      json.key("status")
      json.string(message.status)
      json.key("pdu")
      if let pdu = message.pdu { json.string(pdu) } else { json.null() }
    }
  }
}
