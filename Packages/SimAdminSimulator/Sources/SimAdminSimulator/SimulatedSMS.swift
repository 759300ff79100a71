/// One row of a simulated device's SMS database, as `/api/sms/list` returns it.
public struct SimulatedSMS: Sendable, Hashable {
  /// Database id; grows with each stored message, restarts from 1 after a reset.
  public var id: Int64
  /// `"incoming"` or `"outgoing"`.
  public var direction: String
  /// The peer exactly as stored (no normalisation): `+86…`, bare, short code or sender name.
  public var phoneNumber: String
  /// The text.
  public var content: String
  /// Beijing time, `YYYY-MM-DD HH:MM:SS`, no offset.
  public var timestamp: String
  /// `"received"` for incoming, `"sent"` for outgoing.
  public var status: String
  /// `"mmfp:<32 hex>"` for incoming, `nil` for outgoing.
  public var pdu: String?
  /// When set, the body's bytes as the device sends them in place of ``content``: possibly
  /// invalid UTF-8, which a device behind a broken proxy or fork can emit (issue 14).
  public var contentBytes: [UInt8]? = nil

  /// A message row.
  public init(
    id: Int64, direction: String, phoneNumber: String, content: String, timestamp: String,
    status: String, pdu: String?
  ) {
    self.id = id
    self.direction = direction
    self.phoneNumber = phoneNumber
    self.content = content
    self.timestamp = timestamp
    self.status = status
    self.pdu = pdu
  }
}
