#if canImport(SwiftUI) && os(iOS)
  import AppCore
  import SwiftUI

  /// The tab bar of the registry's modules, each tab a navigation stack of the core's routes;
  /// the form and the confirmation the core waits for are presented over it.
  @MainActor
  struct RootView: View {
    @ObservedObject var model: PhoneModel

    var body: some View {
      if let failure = model.failure {
        PlaceholderView(
          symbol: "exclamationmark.triangle", title: failure, message: nil, retry: nil)
      } else if model.state.tabs.isEmpty {
        PlaceholderView(
          symbol: "square.dashed", title: model.text("phone.no-tabs"), message: nil, retry: nil)
      } else {
        tabs
          .sheet(isPresented: formShown, onDismiss: dismissedForm) {
            if case .form(let form)? = model.state.activity {
              FormSheet(form: form, model: model)
            }
          }
          .confirmationDialog(
            question, isPresented: confirming, titleVisibility: .visible,
            presenting: pendingConfirmation
          ) { confirmation in
            Button(confirmation.batch.title, role: .destructive) {
              model.send(.answer(yes: true))
            }
            Button(model.text("phone.cancel"), role: .cancel) {
              model.send(.answer(yes: false))
            }
          }
      }
    }

    private var tabs: some View {
      TabView(
        selection: Binding(
          get: { model.state.activeTab }, set: { model.send(.selectTab($0)) })
      ) {
        ForEach(Array(model.state.tabs.enumerated()), id: \.offset) { index, tab in
          TabStack(model: model, tab: index)
            .tabItem {
              Label(tab.title, systemImage: Composition.tabIcons[tab.id] ?? "square.grid.2x2")
            }
            .tag(index)
        }
      }
    }

    private var formShown: Binding<Bool> {
      Binding(
        get: {
          if case .form? = model.state.activity { return true }
          return false
        }, set: { _ in })
    }

    /// A form swiped away is cancelled (one closed by running it is gone already).
    private func dismissedForm() {
      if case .form? = model.state.activity { model.send(.cancel) }
    }

    private var pendingConfirmation: PendingConfirmation? {
      if case .confirming(let confirmation)? = model.state.activity { return confirmation }
      return nil
    }

    private var question: String { pendingConfirmation?.question ?? "" }

    // Dismissing the dialog runs its cancel button, which answers no.
    private var confirming: Binding<Bool> {
      Binding(get: { pendingConfirmation != nil }, set: { _ in })
    }
  }

  /// One tab: its home screen and the screens opened on it, from the core's stack.
  @MainActor
  struct TabStack: View {
    @ObservedObject var model: PhoneModel
    let tab: Int

    var body: some View {
      if model.state.stacks.indices.contains(tab), let home = model.state.stacks[tab].first {
        NavigationStack(path: path) {
          ScreenView(model: model, screenID: home.id)
            .navigationDestination(for: Int.self) { ScreenView(model: model, screenID: $0) }
        }
      }
    }

    /// The ids of the screens above the home; going back closes them in the core.
    private var path: Binding<[Int]> {
      Binding(
        get: { model.state.stacks[tab].dropFirst().map(\.id) },
        set: { ids in
          let depth = model.state.stacks[tab].count - 1
          guard model.state.activeTab == tab, ids.count < depth else { return }
          for _ in ids.count..<depth { model.send(.close) }
        })
    }
  }
#endif
