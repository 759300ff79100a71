import Essentials
import Foundation

/// SimAdmin's `/api/sms/*` handlers.
enum SMSHandlers {
  static func handle(
    _ template: String, request: RecordedRequest, state: inout DeviceState, now: Date
  ) -> HTTPResponse {
    switch (request.method, template) {
    case ("GET", "/api/sms/list"): return list(request, state: state)
    case ("GET", "/api/sms/conversation"): return conversation(request, state: state)
    case ("GET", "/api/sms/stats"):
      let incoming = state.messages.count { $0.direction == "incoming" && $0.status == "received" }
      let outgoing = state.messages.count { $0.direction == "outgoing" }
      return .ok(
        .fields([
          ("total", .int(state.messages.count)), ("incoming", .int(incoming)),
          ("outgoing", .int(outgoing)), ("pushed", .int(0)), ("push_attempted", .int(0)),
        ]))
    case ("POST", "/api/sms/send"):
      return DeviceRouter.withBody(request, field: "phone_number") { body in
        let number = (body["phone_number"] as? String) ?? ""
        let content = (body["content"] as? String) ?? ""
        guard body["content"] != nil else {
          return .text(
            "Failed to deserialize the JSON body into the target type: missing field `content`",
            status: 422)
        }
        guard !number.trimmingCharacters(in: .whitespaces).isEmpty, !content.isEmpty else {
          return .error(state.shown("手机号码和短信内容不能为空"))
        }
        // Waits for the modem behind the device's modem lock, with no time limit; stored as
        // sent when the modem is done, stamped by the device's clock (see `SendCompletion`
        // for a client that gives up).
        return state.startSend(number: number, content: content, now: now)
      }
    case ("DELETE", "/api/sms/message/{id}"):
      let text = String(request.path.dropFirst("/api/sms/message/".count))
      guard let id = Int64(text) else {
        return .text("Invalid URL: Cannot parse `\(text)` to a `i64`", status: 400)
      }
      return deleted(state.delete { $0.id == id })
    case ("DELETE", "/api/sms/conversation/{phone_number}"):
      let raw = String(request.path.dropFirst("/api/sms/conversation/".count))
      let number = raw.removingPercentEncoding ?? raw
      return deleted(state.delete { $0.phoneNumber == number })
    case ("POST", "/api/sms/batch-delete"):
      return DeviceRouter.withBody(request, field: nil) { body in
        let ids = Set(((body["ids"] as? [Any]) ?? []).compactMap { ($0 as? NSNumber)?.int64Value })
        let numbers = Set((body["phone_numbers"] as? [Any] ?? []).compactMap { $0 as? String })
        guard !ids.isEmpty || !numbers.isEmpty else {
          return .error(state.shown("请提供要删除的短信 ID 或号码"))
        }
        return deleted(state.delete { ids.contains($0.id) || numbers.contains($0.phoneNumber) })
      }
    case ("POST", "/api/sms/clear"):
      return deleted(state.delete { _ in true })
    default:
      return HTTPResponse(status: 405)
    }
  }

  static func deleted(_ count: Int) -> HTTPResponse {
    .ok(.fields([("deleted", .int(count))]))
  }

  /// Parses an optional integer query parameter like serde does: absent → nil, bad → error.
  static func integer(_ name: String, in query: [String: String]) -> Result<Int?, QueryRejection> {
    guard let text = query[name] else { return .success(nil) }
    guard let value = Int(text) else {
      return .failure(
        QueryRejection(
          response: .text(
            "Failed to deserialize query string: \(name): invalid digit found in string",
            status: 400)))
    }
    return .success(value)
  }

  static func list(_ request: RecordedRequest, state: DeviceState) -> HTTPResponse {
    let query = request.query
    let limit: Int
    let offset: Int
    switch (integer("limit", in: query), integer("offset", in: query)) {
    case (.failure(let rejection), _), (_, .failure(let rejection)): return rejection.response
    case (.success(let rawLimit), .success(let rawOffset)):
      limit = (rawLimit ?? 50) <= 0 ? 50 : (rawLimit ?? 50)
      offset = max(0, rawOffset ?? 0)
    }
    let direction = query["direction"].flatMap { ["incoming", "outgoing"].contains($0) ? $0 : nil }
    let cases = state.profile.smsCases
    let start = cases.contains(.ignoresOffset) ? 0 : offset
    var rows = state.page(direction: direction, offset: start, limit: limit)
    if cases.contains(.endless), rows.count < limit {
      let stored =
        direction.map { wanted in state.messages.count { $0.direction == wanted } }
        ?? state.messages.count
      let first = max(start, stored)
      rows += (first..<(start + limit)).map {
        invented(index: $0 - stored, before: state.startedAt)
      }
    }
    return messagesResponse(
      rows, hostile: state.servesHostileText, shaping: ListShaping(cases))
  }

  /// The `index`-th row an ``SMSCase/endless`` device invents below its stored ones: the same
  /// row at the same position every time, older and with a smaller id than the one before.
  static func invented(index: Int, before start: Date) -> SimulatedSMS {
    let base = start.addingTimeInterval(-DeviceState.historySpan - 86_400)
    let stamp = base.addingTimeInterval(-Double(index))
    let marker = String(format: "%032x", index)
    return SimulatedSMS(
      id: 3_000_000_000 - Int64(index), direction: "incoming", phoneNumber: "10690000",
      content: "Endless row \(index)", timestamp: BeijingTime.string(from: stamp),
      status: "received", pdu: "mmfp:" + marker)
  }

  /// How a list answer is written for the device's ``SMSCase``s that act on the answer, not
  /// on the stored rows.
  struct ListShaping {
    var unreadableEvery: Int?
    var idModulus: Int64?
    var bodyCharacters: Int?

    init(_ cases: [SMSCase]) {
      for smsCase in cases {
        switch smsCase {
        case .unreadable(let every) where every > 0: unreadableEvery = every
        case .repeatedIDs(let modulus) where modulus > 0: idModulus = Int64(modulus)
        case .hugeBodies(let characters): bodyCharacters = characters
        default: break
        }
      }
      padding = Array(String(repeating: "汉", count: bodyCharacters ?? 0).utf8)
    }

    var isPlain: Bool { unreadableEvery == nil && idModulus == nil && bodyCharacters == nil }

    /// The padding of ``bodyCharacters`` as UTF-8 (`汉` is three bytes), made once per answer:
    /// a page of 1,000 padded rows is 51 MB, copied rather than escaped byte by byte.
    let padding: [UInt8]

    /// Writes `message` as this device lists it.
    func write(_ message: SimulatedSMS, into writer: inout JSONWriter) {
      var shown = message
      var suffix: ArraySlice<UInt8> = []
      if let characters = bodyCharacters, shown.content.count < characters {
        suffix = padding.prefix((characters - shown.content.count) * 3)
      }
      if let modulus = idModulus { shown.id = (shown.id - 1) % modulus + 1 }
      guard let every = unreadableEvery, message.id % Int64(every) == 0 else {
        writer.writeMessage(shown, idText: String(shown.id), contentSuffix: suffix)
        return
      }
      switch (message.id / Int64(every)) % 4 {
      case 0: writer.null()
      case 1: writer.writeMessage(shown, idText: "\"x\(shown.id)\"", contentSuffix: suffix)
      case 2: writer.writeMessage(shown, idText: "1e30", contentSuffix: suffix)
      default: writer.writeMessage(shown, idText: nil, contentSuffix: suffix)
      }
    }
  }

  static func conversation(_ request: RecordedRequest, state: DeviceState) -> HTTPResponse {
    let query = request.query
    guard let number = query["phone_number"] else {
      return .text(
        "Failed to deserialize query string: missing field `phone_number`", status: 400)
    }
    let limit: Int
    switch integer("limit", in: query) {
    case .failure(let rejection): return rejection.response
    case .success(let raw): limit = (raw ?? 50) <= 0 ? 50 : (raw ?? 50)
    }
    let matching = state.messages.reversed().lazy.filter { $0.phoneNumber == number }.prefix(limit)
    return messagesResponse(ArraySlice(matching), hostile: state.servesHostileText)
  }

  /// `{"status":"ok","message":"Success","data":{"messages":[…]}}`, written directly.
  static func messagesResponse(
    _ messages: ArraySlice<SimulatedSMS>, hostile: Bool = false, shaping: ListShaping? = nil
  ) -> HTTPResponse {
    let padded = shaping?.bodyCharacters.map { $0 * 3 } ?? 0
    var json = JSONWriter(format: .compact, capacity: 96 + messages.count * (280 + padded))
    json.object { json in
      json.key("status")
      json.string("ok")
      json.key("message")
      json.string("Success")
      json.key("data")
      json.object { json in
        json.key("messages")
        json.array(messages) { json, message in
          if hostile {
            var shown = message
            shown.phoneNumber = HostileText.wrap(message.phoneNumber)
            shown.content = HostileText.wrap(message.content)
            json.writeMessage(shown)
          } else if let shaping, !shaping.isPlain {
            shaping.write(message, into: &json)
          } else {
            json.writeMessage(message)
          }
        }
      }
    }
    return HTTPResponse(
      status: 200, headers: [("content-type", "application/json")], body: json.bytes)
  }
}

/// A bad query parameter and the plain-text 400 Axum answers for it.
struct QueryRejection: Error {
  var response: HTTPResponse
}
