#if canImport(SwiftUI) && os(iOS)
  import AppCore
  import AppRuntime
  import FeatureKit
  import Foundation
  import SwiftUI

  /// The app: one window with the tab bar of the registry's modules. Coming back to the
  /// foreground refreshes the screen shown, once; nothing runs in the background.
  @MainActor
  struct PhoneApp: App {
    @StateObject private var model = PhoneModel()
    @Environment(\.scenePhase) private var scenePhase

    var body: some Scene {
      WindowGroup {
        RootView(model: model)
          .tint(PhoneStyle.color("primary"))
      }
      .onChange(of: scenePhase) { phase in
        model.phaseChanged(to: phase)
      }
    }
  }

  /// The phone session, observed by SwiftUI: its navigation is published; each screen's model
  /// publishes its own changes.
  @MainActor
  final class PhoneModel: ObservableObject {
    /// The tabs and their stacks.
    @Published private(set) var state: AppState
    /// Why the app could not start, if it could not.
    let failure: String?
    let session: PhoneSession?
    private var wasInBackground = false

    init() {
      let languages = Locale.preferredLanguages
      do {
        let files = FileManager.default
        let support = try files.url(
          for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil,
          create: true)
        let documents = try files.url(
          for: .documentDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
        let session = try Composition.session(
          applicationSupport: support, documents: documents, preferredLanguages: languages)
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

    /// Back in the foreground after being in the background: one refresh of the screen
    /// shown (seed 001's rule); going to the background starts nothing.
    func phaseChanged(to phase: ScenePhase) {
      switch phase {
      case .background: wasInBackground = true
      case .active where wasInBackground:
        wasInBackground = false
        session?.enterForeground()
      default: break
      }
    }
  }
#endif
