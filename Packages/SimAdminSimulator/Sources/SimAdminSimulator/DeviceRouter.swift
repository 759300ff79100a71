import Essentials
import Foundation

/// SimAdmin v1.1.10's routing, auth middleware and handlers over a ``DeviceState``.
enum DeviceRouter {
  /// What a failed modem lookup says (`find_modem_path` after `mmcli --scan-modems`, through
  /// zbus's error text), behind each handler's own prefix.
  static let noModem =
    "org.freedesktop.DBus.Error.Failed: No ModemManager modem found after scan: "
    + "successfully requested to scan devices"
  static let loginRequired = "请先登录"
  static let wrongPassword = "管理员密码不正确"
  static let passwordNotSet = "管理员密码尚未设置"

  static let publicRoutes: Set<String> = [
    "/api/health", "/api/auth/status", "/api/auth/setup", "/api/auth/login", "/api/auth/logout",
    "/api/hub/provision",
  ]

  static let routes: [String: Set<String>] = [
    "/api/health": ["GET"], "/api/auth/status": ["GET"], "/api/auth/setup": ["POST"],
    "/api/auth/login": ["POST"], "/api/auth/logout": ["POST"], "/api/auth/settings": ["GET"],
    "/api/device": ["GET"], "/api/sim": ["GET"], "/api/network": ["GET"], "/api/cells": ["GET"],
    "/api/stats": ["GET"], "/api/stats/cpu": ["GET"], "/api/connectivity": ["GET"],
    "/api/data": ["GET", "POST"], "/api/roaming": ["GET", "POST"],
    "/api/airplane-mode": ["GET", "POST"], "/api/hub": ["GET", "POST"], "/api/hub/unbind": ["POST"],
    "/api/hub/provision": ["POST"], "/api/sms/list": ["GET"], "/api/sms/conversation": ["GET"],
    "/api/sms/stats": ["GET"], "/api/sms/send": ["POST"], "/api/sms/batch-delete": ["POST"],
    "/api/sms/clear": ["POST"],
  ]

  static let spaPage = """
    <!doctype html>
    <html lang="zh-CN"><head><meta charset="UTF-8" /><title>SimAdmin</title>
    <script type="module" crossorigin src="/assets/index.js"></script></head>
    <body><div id="root"></div></body></html>
    """

  /// The route template a path belongs to (`nil` = unknown), with its allowed methods.
  static func match(path: String, version profile: DeviceProfile) -> (String, Set<String>)? {
    if path.hasPrefix("/api/hub"), !profile.hasHubRoutes { return nil }
    if path == "/api/sms/stats", profile.smsCases.contains(.noStats) { return nil }
    if let methods = routes[path] { return (path, methods) }
    let messagePrefix = "/api/sms/message/"
    if path.hasPrefix(messagePrefix), path.count > messagePrefix.count,
      !path.dropFirst(messagePrefix.count).contains("/")
    {
      return ("/api/sms/message/{id}", ["DELETE"])
    }
    let conversationPrefix = "/api/sms/conversation/"
    if path.hasPrefix(conversationPrefix), path.count > conversationPrefix.count,
      !path.dropFirst(conversationPrefix.count).contains("/")
    {
      return ("/api/sms/conversation/{phone_number}", ["DELETE"])
    }
    return nil
  }

  /// Answers one request the way the real device would.
  static func respond(to request: RecordedRequest, state: inout DeviceState, now: Date)
    -> HTTPResponse
  {
    let path = request.path
    guard path == "/api" || path.hasPrefix("/api/") else {
      return HTTPResponse(
        status: 200, headers: [("content-type", "text/html; charset=utf-8")],
        body: Array(spaPage.utf8))
    }
    guard let (template, methods) = match(path: path, version: state.profile) else {
      return .text("API endpoint not found", status: 404)
    }
    let protected = state.profile.isProtected && !publicRoutes.contains(template)
    if protected, !state.isValidSession(sessionToken(request), now: now) {
      let accept = request.headers["accept"]?.lowercased() ?? ""
      let mode = request.headers["sec-fetch-mode"]?.lowercased() ?? ""
      if accept.contains("text/html") || mode == "navigate" {
        return HTTPResponse(status: 303, headers: [("location", "/login")])
      }
      return .error(
        state.shown(state.profile.password == nil ? passwordNotSet : loginRequired), status: 401)
    }
    guard methods.contains(request.method) else { return HTTPResponse(status: 405) }
    if looksUpModem(template, request, state) {
      let (delay, found) = state.lookUpModem(now: now, uptime: Uptime.seconds())
      state.modemDelay = delay
      if !found {
        let prefix = template == "/api/sms/send" ? "Failed to send SMS: " : "Failed: "
        return .error(state.shown(prefix + noModem))
      }
    }
    return handle(template, request: request, state: &state, now: now)
  }

  /// Whether the handler of `template` looks the modem up for `request`: every modem-backed
  /// route (``DeviceState/modemRoutes``), except `GET /api/data` while the user switched
  /// data off (answered `active: false` from memory) and the SMS database routes.
  static func looksUpModem(_ template: String, _ request: RecordedRequest, _ state: DeviceState)
    -> Bool
  {
    guard DeviceState.modemRoutes.contains(template) else { return false }
    if template == "/api/data", request.method == "GET", !state.dataActive { return false }
    return true
  }

  static func sessionToken(_ request: RecordedRequest) -> String? {
    guard let cookie = request.headers["cookie"] else { return nil }
    for pair in cookie.split(separator: ";") {
      let trimmed = pair.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("simadmin_session=") {
        return String(trimmed.dropFirst("simadmin_session=".count))
      }
    }
    return nil
  }

  // MARK: - Handlers

  static func handle(
    _ template: String, request: RecordedRequest, state: inout DeviceState, now: Date
  ) -> HTTPResponse {
    switch (request.method, template) {
    case ("GET", "/api/health"):
      return .json(
        .fields([
          ("status", .string("ok")), ("message", .string("Service is running")),
          ("platform", .string("linux-modem")), ("version", .string(state.profile.version)),
        ]))
    case ("GET", "/api/auth/status"):
      let authenticated =
        !state.profile.isProtected || state.isValidSession(sessionToken(request), now: now)
      return .ok(
        .fields([
          ("configured", .bool(state.profile.password != nil)),
          ("authenticated", .bool(authenticated)), ("settings", settings(state)),
        ]))
    case ("GET", "/api/auth/settings"):
      return .ok(settings(state))
    case ("POST", "/api/auth/setup"):
      if state.profile.password != nil { return .error("管理员密码已设置", status: 400) }
      return .error("密码长度至少为 8 位", status: 400)
    case ("POST", "/api/auth/login"):
      return login(request, state: &state, now: now)
    case ("POST", "/api/auth/logout"):
      if let token = sessionToken(request) { state.sessions[token] = nil }
      var response = HTTPResponse.ok(.null, message: "Logged out")
      response.headers.append(
        ("set-cookie", "simadmin_session=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0"))
      return response
    case ("GET", "/api/device"): return .ok(DeviceDocuments.device(state))
    case ("GET", "/api/sim"): return .ok(DeviceDocuments.sim(state))
    case ("GET", "/api/network"): return .ok(DeviceDocuments.network(state))
    case ("GET", "/api/cells"): return .ok(DeviceDocuments.cells(state))
    case ("GET", "/api/stats"):
      if now.timeIntervalSince(state.startedAt) < state.profile.statsWarmUpSeconds {
        return .ok(DeviceDocuments.statsBeforeFirstSample(), message: "No system stats sample yet")
      }
      return .ok(DeviceDocuments.stats(&state, now: now))
    case ("GET", "/api/stats/cpu"): return .ok(DeviceDocuments.cpu(state))
    case ("GET", "/api/connectivity"): return .ok(DeviceDocuments.connectivity(&state))
    case ("GET", "/api/data"):
      // Switched off by the user: `active: false` from memory. Otherwise the modem's state:
      // connected only when it is on (not in airplane mode).
      return .ok(.fields([("active", .bool(state.dataActive && !state.airplaneMode))]))
    case ("POST", "/api/data"):
      return withBody(request, field: "active") { body in
        state.dataActive = body["active"] as? Bool ?? state.dataActive
        return .ok(.fields([("active", .bool(state.dataActive && !state.airplaneMode))]))
      }
    case ("GET", "/api/roaming"): return .ok(roaming(state))
    case ("POST", "/api/roaming"):
      return withBody(request, field: "allowed") { body in
        state.roamingAllowed = body["allowed"] as? Bool ?? state.roamingAllowed
        return .ok(roaming(state))
      }
    case ("GET", "/api/airplane-mode"): return .ok(airplane(state))
    case ("POST", "/api/airplane-mode"):
      return withBody(request, field: "enabled") { body in
        state.airplaneMode = body["enabled"] as? Bool ?? state.airplaneMode
        return .ok(airplane(state))
      }
    case ("GET", "/api/hub"), ("POST", "/api/hub"), ("POST", "/api/hub/unbind"),
      ("POST", "/api/hub/provision"):
      return HubHandlers.handle(template, request: request, state: &state)
    default:
      return SMSHandlers.handle(template, request: request, state: &state, now: now)
    }
  }

  static func login(_ request: RecordedRequest, state: inout DeviceState, now: Date)
    -> HTTPResponse
  {
    withBody(request, field: "password") { body in
      guard let password = state.profile.password else {
        return .error(state.shown(passwordNotSet), status: 400)
      }
      guard let given = body["password"] as? String, given == password else {
        state.recordLogin(accepted: false, now: now)
        return .error(state.shown(wrongPassword), status: 401)
      }
      state.recordLogin(accepted: true, now: now)
      let token = state.createSession(now: now)
      var response = HTTPResponse.ok(.null, message: "Logged in")
      response.headers.append(
        (
          "set-cookie",
          "simadmin_session=\(token); HttpOnly; SameSite=Lax; Path=/; Max-Age=\(Int(DeviceState.sessionLifetime))"
        ))
      return response
    }
  }

  static func settings(_ state: DeviceState) -> JSONValue {
    .fields([
      ("password_protection_enabled", .bool(state.profile.isProtected)),
      ("password_min_length", .int(8)), ("password_require_letters", .bool(true)),
      ("password_require_digits", .bool(true)), ("password_require_symbols", .bool(false)),
      ("session_ttl_seconds", .int(Int(DeviceState.sessionLifetime))),
      ("idle_timeout_seconds", .int(3600)),
    ])
  }

  static func roaming(_ state: DeviceState) -> JSONValue {
    .fields([("roaming_allowed", .bool(state.roamingAllowed)), ("is_roaming", .bool(false))])
  }

  /// Airplane mode disables the modem (state 3): still powered (≥ 3), not online (≥ 6).
  static func airplane(_ state: DeviceState) -> JSONValue {
    .fields([
      ("enabled", .bool(state.airplaneMode)), ("powered", .bool(true)),
      ("online", .bool(!state.airplaneMode)),
    ])
  }

  // MARK: - Axum-style extractors

  /// Decodes a JSON object body the way Axum's `Json` extractor does, including its
  /// plain-text rejections (415 without a JSON content type, 400 for bad JSON, 422 when
  /// `field` is missing; pass nil when every field is optional).
  static func withBody(
    _ request: RecordedRequest, field: String?, _ body: ([String: Any]) -> HTTPResponse
  ) -> HTTPResponse {
    let contentType = request.headers["content-type"]?.lowercased() ?? ""
    guard contentType.hasPrefix("application/json") || contentType.contains("+json") else {
      return .text("Expected request with `Content-Type: application/json`", status: 415)
    }
    guard let object = try? JSONSerialization.jsonObject(with: request.body),
      let fields = object as? [String: Any]
    else {
      return .text(
        "Failed to parse the request body as JSON: expected an object", status: 400)
    }
    if let field, fields[field] == nil {
      return .text(
        "Failed to deserialize the JSON body into the target type: missing field `\(field)`",
        status: 422)
    }
    return body(fields)
  }
}
