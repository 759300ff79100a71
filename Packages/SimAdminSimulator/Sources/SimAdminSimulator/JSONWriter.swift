import Essentials

extension JSONWriter {
  /// Writes one SMS row in SimAdmin's field order (`id`, `direction`, `phone_number`,
  /// `content`, `timestamp`, `status`, `pdu`); the content's raw bytes when the row has them.
  mutating func writeMessage(_ message: SimulatedSMS) {
    writeMessage(message, idText: String(message.id))
  }

  /// Writes one SMS row in SimAdmin's field order with `idText` as the id's JSON (no `id`
  /// member at all when nil: how a broken device lists a row no client can read), and
  /// `contentSuffix` (UTF-8 that needs no escaping) after the body's text.
  mutating func writeMessage(
    _ message: SimulatedSMS, idText: String?, contentSuffix: ArraySlice<UInt8> = []
  ) {
    object { json in
      if let idText {
        json.key("id")
        json.verbatim(idText)
      }
      json.key("direction")
      json.string(message.direction)
      json.key("phone_number")
      json.string(message.phoneNumber)
      json.key("content")
      if let raw = message.contentBytes {
        json.string(bytes: raw, verbatimSuffix: contentSuffix)
      } else {
        json.string(message.content, verbatimSuffix: contentSuffix)
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
