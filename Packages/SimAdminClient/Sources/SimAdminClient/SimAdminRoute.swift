import Foundation

/// Which SMS a list asks for: SimAdmin's `direction` query value.
public enum SmsDirection: String, Sendable, Codable, Hashable, CaseIterable {
  /// Messages the device received.
  case incoming
  /// Messages the device sent.
  case outgoing
}

/// Every SimAdmin endpoint this project may call: a closed list, the only way a URL is built.
///
/// Each case knows its method, its path template (for logs and errors) and how to build its
/// request from an instance's origin. Nothing here accepts a free-form path or URL.
/// ``description`` never contains a password or an SMS body.
public enum SimAdminRoute: Sendable, Hashable, CustomStringConvertible {
  /// `GET /api/health` (not wrapped in an envelope).
  case health
  /// `GET /api/auth/status`.
  case authStatus
  /// `POST /api/auth/login` with `{"password": …}`.
  case login(password: String)
  /// `POST /api/auth/logout`.
  case logout
  /// `GET /api/device`.
  case device
  /// `GET /api/sim`.
  case sim
  /// `GET /api/network`.
  case network
  /// `GET /api/cells`.
  case cells
  /// `GET /api/stats`.
  case stats
  /// `GET /api/stats/cpu`.
  case cpu
  /// `GET /api/connectivity`.
  case connectivity
  /// `GET /api/data`.
  case data
  /// `GET /api/roaming`.
  case roaming
  /// `GET /api/airplane-mode`.
  case airplaneMode
  /// `GET /api/hub`.
  case hub
  /// `POST /api/hub/unbind`.
  case hubUnbind
  /// `POST /api/hub` with a whole `HubConfig` (SimAdmin replaces the saved one; every field
  /// it is not sent takes its default), e.g. `enabled: false` for standalone mode.
  case hubSave(
    enabled: Bool, url: String, localFallbackTimeoutSeconds: Int64, localFallbackEnabled: Bool)
  /// `GET /api/sms/list?limit=&offset=[&direction=]`, newest first.
  case smsList(limit: Int = 50, offset: Int = 0, direction: SmsDirection? = nil)
  /// `GET /api/sms/conversation?phone_number=&limit=`, newest first (no offset upstream).
  case smsConversation(phoneNumber: String, limit: Int = 50)
  /// `GET /api/sms/stats`.
  case smsStats
  /// `POST /api/sms/send` with `{"phone_number": …, "content": …}`.
  case smsSend(phoneNumber: String, content: String)
  /// `DELETE /api/sms/message/{id}`.
  case smsDeleteMessage(id: Int64)
  /// `DELETE /api/sms/conversation/{phone_number}`.
  case smsDeleteConversation(phoneNumber: String)
  /// `POST /api/sms/batch-delete` with `{"ids": […], "phone_numbers": […]}`.
  case smsBatchDelete(ids: [Int64], phoneNumbers: [String])
  /// `POST /api/sms/clear`.
  case smsClear

  // MARK: - Shape

  /// The HTTP method.
  public var method: HTTPMethod {
    switch self {
    case .login, .logout, .hubUnbind, .hubSave, .smsSend, .smsBatchDelete, .smsClear: .post
    case .smsDeleteMessage, .smsDeleteConversation: .delete
    default: .get
    }
  }

  /// The path with `{placeholders}` for parameters, e.g. `/api/sms/conversation/{phone_number}`.
  public var pathTemplate: String {
    switch self {
    case .health: "/api/health"
    case .authStatus: "/api/auth/status"
    case .login: "/api/auth/login"
    case .logout: "/api/auth/logout"
    case .device: "/api/device"
    case .sim: "/api/sim"
    case .network: "/api/network"
    case .cells: "/api/cells"
    case .stats: "/api/stats"
    case .cpu: "/api/stats/cpu"
    case .connectivity: "/api/connectivity"
    case .data: "/api/data"
    case .roaming: "/api/roaming"
    case .airplaneMode: "/api/airplane-mode"
    case .hub, .hubSave: "/api/hub"
    case .hubUnbind: "/api/hub/unbind"
    case .smsList: "/api/sms/list"
    case .smsConversation: "/api/sms/conversation"
    case .smsStats: "/api/sms/stats"
    case .smsSend: "/api/sms/send"
    case .smsDeleteMessage: "/api/sms/message/{id}"
    case .smsDeleteConversation: "/api/sms/conversation/{phone_number}"
    case .smsBatchDelete: "/api/sms/batch-delete"
    case .smsClear: "/api/sms/clear"
    }
  }

  /// Method and path template, e.g. `GET /api/sms/list`: how logs and errors name the endpoint.
  public var endpoint: String { "\(method.rawValue) \(pathTemplate)" }

  /// The endpoint only: never a parameter, so never a password or an SMS body.
  public var description: String { endpoint }

  /// Whether the response is SimAdmin's `{status, message, data}` envelope (all but health).
  public var isEnveloped: Bool { self != .health }

  /// Whether SimAdmin serves this route without a session, so a 401 cannot be fixed by
  /// logging in again.
  public var isPublic: Bool {
    switch self {
    case .health, .authStatus, .login, .logout: true
    default: false
    }
  }

  // MARK: - Request

  /// The path with every parameter percent-encoded as a path segment.
  public var path: String {
    switch self {
    case .smsDeleteMessage(let id): "/api/sms/message/\(id)"
    case .smsDeleteConversation(let phoneNumber):
      "/api/sms/conversation/\(PercentEncoding.encode(phoneNumber))"
    default: pathTemplate
    }
  }

  /// The query items in order, not yet encoded.
  public var queryItems: [(name: String, value: String)] {
    switch self {
    case .smsList(let limit, let offset, let direction):
      var items = [("limit", String(limit)), ("offset", String(offset))]
      if let direction { items.append(("direction", direction.rawValue)) }
      return items.map { (name: $0.0, value: $0.1) }
    case .smsConversation(let phoneNumber, let limit):
      return [(name: "phone_number", value: phoneNumber), (name: "limit", value: String(limit))]
    default:
      return []
    }
  }

  /// The encoded query (`limit=50&offset=0`), empty when the route has none.
  public var query: String {
    queryItems.map { "\(PercentEncoding.encode($0.name))=\(PercentEncoding.encode($0.value))" }
      .joined(separator: "&")
  }

  /// The JSON body, or `nil` for routes that send none.
  public func body() -> Data? {
    func encoded(_ value: some Encodable) -> Data? {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      return try? encoder.encode(value)
    }
    switch self {
    case .login(let password):
      return encoded(["password": password])
    case .smsSend(let phoneNumber, let content):
      return encoded(["phone_number": phoneNumber, "content": content])
    case .smsBatchDelete(let ids, let phoneNumbers):
      return encoded(BatchDeleteBody(ids: ids, phoneNumbers: phoneNumbers))
    case .hubSave(let enabled, let url, let timeout, let fallback):
      return encoded(
        HubConfigBody(
          enabled: enabled, url: url, localFallbackTimeoutSeconds: timeout,
          localFallbackEnabled: fallback))
    default:
      return nil
    }
  }

  /// Builds this route's request against `origin` (`http(s)://host[:port]`, nothing more).
  ///
  /// Throws ``SimAdminError/invalidOrigin(_:)`` when the origin has a path, query, fragment
  /// or user-info, or is not http/https.
  public func request(origin: URL) throws(SimAdminError) -> HTTPRequest {
    try request(base: Self.validatedBase(origin), origin: origin)
  }

  /// Builds this route's request against `base`, an origin already checked by
  /// ``validatedBase(_:)`` (a session checks its origin once, not on every request).
  func request(base: String, origin: URL) throws(SimAdminError) -> HTTPRequest {
    let query = self.query
    let queryPart = query.isEmpty ? "" : "?\(query)"
    guard let url = URL(string: base + path + queryPart) else {
      throw .invalidOrigin(origin.absoluteString)
    }
    let body = body()
    var headers: [String: String] = [:]
    if body != nil { headers["Content-Type"] = "application/json" }
    return HTTPRequest(
      method: method, url: url, headers: headers, body: body, endpoint: endpoint)
  }

  /// `scheme://host[:port]` of a valid origin.
  static func validatedBase(_ origin: URL) throws(SimAdminError) -> String {
    guard
      let components = URLComponents(url: origin, resolvingAgainstBaseURL: false),
      let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = components.host, !host.isEmpty,
      components.path.isEmpty || components.path == "/",
      components.query == nil, components.fragment == nil,
      components.user == nil, components.password == nil
    else {
      throw .invalidOrigin(origin.absoluteString)
    }
    let hostPart =
      host.utf8.contains(UInt8(ascii: ":")) && !host.hasPrefix("[") ? "[\(host)]" : host
    let portPart = components.port.map { ":\($0)" } ?? ""
    return "\(scheme)://\(hostPart)\(portPart)"
  }
}

/// The body of `POST /api/sms/batch-delete`.
private struct BatchDeleteBody: Encodable {
  let ids: [Int64]
  let phoneNumbers: [String]

  enum CodingKeys: String, CodingKey {
    case ids
    case phoneNumbers = "phone_numbers"
  }
}

/// The body of `POST /api/hub`: SimAdmin's `HubConfig`.
private struct HubConfigBody: Encodable {
  let enabled: Bool
  let url: String
  let localFallbackTimeoutSeconds: Int64
  let localFallbackEnabled: Bool

  enum CodingKeys: String, CodingKey {
    case enabled, url
    case localFallbackTimeoutSeconds = "local_fallback_timeout_seconds"
    case localFallbackEnabled = "local_fallback_enabled"
  }
}
