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
        let draft = SMSGenerator.Draft(direction: "outgoing", phoneNumber: number, content: content)
        state.append(draft, timestamp: state.stamp(now.addingTimeInterval(state.clockOffset)))
        let path = "/org/freedesktop/ModemManager1/SMS/\(state.sentCount)"
        state.sentCount += 1
        return .ok(.fields([("path", .string(path))]), message: "短信发送成功")
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
    return messagesResponse(
      state.page(direction: direction, offset: offset, limit: limit),
      hostile: state.servesHostileText)
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
  static func messagesResponse(_ messages: ArraySlice<SimulatedSMS>, hostile: Bool = false)
    -> HTTPResponse
  {
    var writer = JSONWriter(capacity: 96 + messages.count * 280)
    writer.append("{\"status\":\"ok\",\"message\":\"Success\",\"data\":{\"messages\":[")
    var first = true
    for message in messages {
      if !first { writer.bytes.append(UInt8(ascii: ",")) }
      first = false
      if hostile {
        var shown = message
        shown.phoneNumber = HostileText.wrap(message.phoneNumber)
        shown.content = HostileText.wrap(message.content)
        writer.writeMessage(shown)
      } else {
        writer.writeMessage(message)
      }
    }
    writer.append("]}}")
    return HTTPResponse(
      status: 200, headers: [("content-type", "application/json")], body: writer.bytes)
  }
}

/// A bad query parameter and the plain-text 400 Axum answers for it.
struct QueryRejection: Error {
  var response: HTTPResponse
}
