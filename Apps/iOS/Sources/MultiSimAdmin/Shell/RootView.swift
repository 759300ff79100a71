#if canImport(SwiftUI) && os(iOS)
  import AppCore
  import AppRuntime
  import FeatureKit
  import SwiftUI

  /// The tab bar of the registry's modules, each tab a navigation stack of the core's
  /// screens, each screen drawn by its feature's own view.
  @MainActor
  struct RootView: View {
    @ObservedObject var model: PhoneModel

    var body: some View {
      if let failure = model.failure {
        PhonePlaceholder(symbol: "exclamationmark.triangle", title: failure)
      } else if let session = model.session, !model.state.tabs.isEmpty {
        TabView(
          selection: Binding(
            get: { model.state.activeTab }, set: { session.selectTab($0) })
        ) {
          ForEach(Array(model.state.tabs.enumerated()), id: \.offset) { index, tab in
            TabStack(model: model, session: session, tab: index)
              .tabItem {
                Label(tab.title, systemImage: Composition.tabIcons[tab.id] ?? "square.grid.2x2")
              }
              .tag(index)
          }
        }
      } else {
        PhonePlaceholder(symbol: "square.dashed", title: "MultiSimAdmin")
      }
    }
  }

  /// One tab: its home screen and the screens opened on it, from the core's stack; going
  /// back closes them in the session (the screen below fetches nothing).
  @MainActor
  struct TabStack: View {
    @ObservedObject var model: PhoneModel
    let session: PhoneSession
    let tab: Int

    var body: some View {
      if model.state.stacks.indices.contains(tab), let home = model.state.stacks[tab].first {
        NavigationStack(path: path) {
          screen(home.id)
            .navigationDestination(for: Int.self) { screen($0) }
        }
      }
    }

    @ViewBuilder
    private func screen(_ id: Int) -> some View {
      if let screen = session.model(id) {
        screen.makeView()
      } else {
        ProgressView()
      }
    }

    /// The ids of the screens above the home.
    private var path: Binding<[Int]> {
      Binding(
        get: { model.state.stacks[tab].dropFirst().map(\.id) },
        set: { ids in
          guard model.state.activeTab == tab else { return }
          session.close(toDepth: ids.count + 1)
        })
    }
  }
#endif
