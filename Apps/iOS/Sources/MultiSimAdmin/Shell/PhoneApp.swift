#if canImport(SwiftUI) && os(iOS)
  import AppCore
  import AppRuntime
  import Foundation
  import SwiftUI

  /// The app: one window with the tab bar of the registry's modules.
  @MainActor
  struct PhoneApp: App {
    @StateObject private var model = PhoneModel()

    var body: some Scene {
      WindowGroup {
        RootView(model: model)
      }
    }
  }

  /// The app core's session, observed by SwiftUI: every change of its state is published.
  @MainActor
  final class PhoneModel: ObservableObject {
    /// The state drawn.
    @Published private(set) var state: AppState
    /// Why the app could not start, if it could not.
    let failure: String?
    private let session: AppSession?

    init() {
      let languages = Locale.preferredLanguages
      do {
        let support = try FileManager.default.url(
          for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil,
          create: true)
        let session = try Composition.session(
          applicationSupport: support, preferredLanguages: languages)
        self.session = session
        state = session.state
        failure = nil
        session.onChange = { [weak self] in
          guard let self, let session = self.session else { return }
          self.state = session.state
        }
        session.start()
      } catch {
        session = nil
        state = AppState(tabs: [])
        failure = PhoneRuntime.startFailure(error, preferredLanguages: languages)
      }
    }

    /// The registry and language, once started.
    var context: AppContext? { session?.context }

    /// A sentence of the core's catalogue in the app's language.
    func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
      context?.string(key, arguments) ?? key
    }

    /// Tells the core what the user did.
    func send(_ message: AppMessage) {
      session?.send(message)
    }

    /// The screen with this id, wherever it is.
    func screen(_ id: Int) -> ScreenState? {
      state.stacks.lazy.flatMap { $0 }.first { $0.id == id }
    }
  }
#endif
