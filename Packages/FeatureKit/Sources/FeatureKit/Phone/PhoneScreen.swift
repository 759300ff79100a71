import Essentials
import Foundation

#if os(iOS) && canImport(SwiftUI)
  import SwiftUI
#endif

/// A phone screen a feature declares for one of its routes: the typed model that holds all of
/// the screen's logic (plain Swift, tested on Linux) and, on iOS, the SwiftUI view that draws
/// it (``PhoneScreenModel/makeView()``).
///
/// A feature lists its phone screens in its ``FeatureModule`` beside its routes, so the app
/// composes them without importing one feature from another; ``FeatureRegistry`` says which
/// route has none (``FeatureRegistry/routesWithoutPhoneScreen``).
public struct PhoneScreen: Sendable {
  /// The route pattern the screen draws, e.g. `fleet/:ref`.
  public let pattern: RoutePattern
  private let factory: @MainActor @Sendable (PhoneRequest) -> any PhoneScreenModel

  /// The screen of the route `pattern`, whose model `make` builds for one path.
  public init(
    _ pattern: String, make: @escaping @MainActor @Sendable (PhoneRequest) -> any PhoneScreenModel
  ) {
    self.pattern = RoutePattern(pattern)
    self.factory = make
  }

  /// A new model for `request`.
  @MainActor
  public func make(_ request: PhoneRequest) -> any PhoneScreenModel {
    factory(request)
  }
}

/// What a phone screen's model is made from: the concrete path, its parameters and the app.
public struct PhoneRequest: Sendable {
  /// The concrete path, e.g. `fleet/3f2a9c1d`.
  public let path: String
  /// The values of the pattern's `:parameters`.
  public let parameters: [String: String]
  /// The running app.
  public let context: PhoneContext

  /// A request.
  public init(path: String, parameters: [String: String], context: PhoneContext) {
    self.path = path
    self.parameters = parameters
    self.context = context
  }

  /// The value of `:name` (the registry binds every declared parameter).
  public func parameter(_ name: String) -> String {
    parameters[name] ?? ""
  }
}

/// The model of one phone screen: its state, the messages its view sends, and the flows they
/// start. Everything the view shows comes from here; ``outline()`` says it in words, which is
/// what the Linux walk reads and checks.
///
/// The life cycle is the app's request budget: ``appear()`` loads once, ``resume(notice:)``
/// (back from a screen above) rereads local data only and never asks a device, and
/// ``refresh()`` (pull to refresh, or the app returning to the foreground) fetches again.
@MainActor
public protocol PhoneScreenModel: AnyObject {
  /// The title of the navigation bar.
  var title: String { get }
  /// Fires whenever what the screen shows changes.
  var changes: PhoneChanges { get }
  /// The screen is shown for the first time.
  func appear() async
  /// The screen is on top again after the one above it closed; `notice` is what that one
  /// left to say (e.g. "Added Lab · Online").
  func resume(notice: String?) async
  /// Pull to refresh, or the app back in the foreground.
  func refresh() async
  /// What the screen shows right now, in words.
  func outline() -> PhoneOutline
  #if os(iOS) && canImport(SwiftUI)
    /// The screen's SwiftUI view.
    func makeView() -> AnyView
  #endif
}

extension PhoneScreenModel {
  /// By default a screen back on top shows the closing screen's notice and reloads nothing.
  public func resume(notice: String?) async {}
}

/// Tells the views (and tests) that a model changed. On iOS it is an `ObservableObject`, so a
/// SwiftUI view observes it with `@ObservedObject`.
@MainActor
public final class PhoneChanges {
  private var observers: [Int: @MainActor () -> Void] = [:]
  private var next = 0
  /// How many changes were announced (a test can wait for one).
  public private(set) var count = 0

  /// Nobody watching yet.
  public init() {}

  /// Announces a change.
  public func send() {
    count += 1
    #if canImport(Combine)
      objectWillChange.send()
    #endif
    for observer in observers.values { observer() }
  }

  /// Calls `observer` after every change until the returned token is passed to ``stop(_:)``.
  @discardableResult
  public func observe(_ observer: @escaping @MainActor () -> Void) -> Int {
    next += 1
    observers[next] = observer
    return next
  }

  /// Stops one observer.
  public func stop(_ token: Int) {
    observers[token] = nil
  }
}

#if canImport(Combine)
  import Combine

  extension PhoneChanges: ObservableObject {}
#endif
