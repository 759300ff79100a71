import Essentials
import ViewKit

/// What a route's loader and view function receive.
public struct RouteRequest: Sendable {
  /// The concrete path, e.g. `device/n1/sim`.
  public let path: String
  /// The values of the pattern's `:parameters`.
  public let parameters: [String: String]
  /// The app's environment.
  public let environment: AppEnvironment
  /// What the console's `/` search asked for, on routes that search themselves.
  public let search: String?
  /// The screen's view options turned on in the console (see ``RouteAction/toggles``).
  public let flags: Set<String>

  /// A request for `path` with its bound parameters.
  public init(
    path: String, parameters: [String: String], environment: AppEnvironment,
    search: String? = nil, flags: Set<String> = []
  ) {
    self.path = path
    self.parameters = parameters
    self.environment = environment
    self.search = search
    self.flags = flags
  }

  /// The value of `:name`; the registry guarantees every declared parameter is bound.
  public func parameter(_ name: String) -> String {
    parameters[name] ?? ""
  }
}

/// A screen of a feature: a pattern, a title, how to load its state and how to show it.
///
/// The view is a pure function of the loaded state, so the text renderer, the full-screen
/// console and SwiftUI all draw the same tree.
public struct FeatureRoute: Sendable {
  /// The address pattern, e.g. `fleet/:ref`.
  public let pattern: RoutePattern
  /// The screen's title.
  public let title: LocalizedString
  /// The keys the full-screen console offers here.
  public let actions: [RouteAction]
  /// Whether the route answers ``RouteRequest/search`` itself (e.g. the message archive's
  /// full-text search); otherwise the console filters the visible rows.
  public let isSearchable: Bool
  /// Whether the console opens the screen at its end (a conversation: the newest message).
  public let startsAtEnd: Bool
  /// The key of the action whose form the console opens as soon as the screen is shown
  /// (an add or edit screen); nil for an ordinary screen.
  public let formKey: Character?
  private let loadState: @Sendable (RouteRequest) async throws -> any Sendable
  private let present: @Sendable (any Sendable, RouteRequest) -> ViewNode

  /// A route whose state of type `State` is loaded, then shown by `view`.
  public init<State: Sendable>(
    _ pattern: String,
    title: LocalizedString,
    actions: [RouteAction] = [],
    searchable: Bool = false,
    startsAtEnd: Bool = false,
    formKey: Character? = nil,
    load: @escaping @Sendable (RouteRequest) async throws -> State,
    view: @escaping @Sendable (State, RouteRequest) -> ViewNode
  ) {
    self.pattern = RoutePattern(pattern)
    self.title = title
    self.actions = actions
    self.isSearchable = searchable
    self.startsAtEnd = startsAtEnd
    self.formKey = formKey
    self.loadState = { try await load($0) }
    self.present = { state, request in
      guard let state = state as? State else {
        // Another route's state: a fault of the shell, told in the user's words, with the
        // retry that loads this route's own state.
        let language = request.environment.language
        return .error(
          ErrorState(
            title: FeatureKitStrings.text("route.failed", language),
            message: FeatureKitStrings.text("route.stateMismatch", language),
            retryCommand: "view \(request.path)"))
      }
      return view(state, request)
    }
  }

  /// Loads the state for `request`.
  public func load(_ request: RouteRequest) async throws -> any Sendable {
    try await loadState(request)
  }

  /// The view of already loaded `state`.
  public func view(of state: any Sendable, _ request: RouteRequest) -> ViewNode {
    present(state, request)
  }

  /// Loads and shows; a failed load becomes an error state naming what went wrong, with a
  /// retry command that opens the same route again.
  public func render(_ request: RouteRequest) async -> ViewNode {
    do {
      return view(of: try await load(request), request)
    } catch {
      let language = request.environment.language
      return .error(
        ErrorState(
          title: FeatureKitStrings.text("route.failed", language),
          message: UserFacingMessage.of(error, language),
          retryCommand: "view \(request.path)"))
    }
  }
}
