#if canImport(SwiftUI) && os(iOS)
  import AppCore
  import SwiftUI

  /// One route's screen: the core's layout of its view tree as a `List`, its actions in the
  /// toolbar and on its rows, pull to refresh, and a search field where the route searches.
  @MainActor
  struct ScreenView: View {
    @ObservedObject var model: PhoneModel
    let screenID: Int

    var body: some View {
      if let screen = model.screen(screenID), let context = model.context {
        let layout = PhoneScreen.of(screen, in: model.state, context)
        let isShown = model.state.screen.id == screenID
        let actions = isShown ? PhoneAction.of(model.state, context) : (row: [], screen: [])
        content(layout, screen: screen, rowActions: actions.row)
          .navigationTitle(layout.title)
          .toolbar {
            ToolbarItem(placement: .primaryAction) {
              if !actions.screen.isEmpty {
                Menu {
                  ForEach(actions.screen) { action in
                    Button(action.title, role: action.isDestructive ? .destructive : nil) {
                      model.send(.perform(action: action.key))
                    }
                  }
                } label: {
                  Label(model.text("phone.actions"), systemImage: "ellipsis.circle")
                }
              }
            }
          }
          .refreshable { await model.send(.refresh) }
          .searchable(
            if: isShown && (context.route(screen.path)?.isSearchable ?? false),
            text: Binding(get: { screen.search }, set: { model.send(.search($0)) }),
            prompt: model.text("phone.search"))
      }
    }

    @ViewBuilder
    private func content(_ layout: PhoneScreen, screen: ScreenState, rowActions: [PhoneAction])
      -> some View
    {
      switch layout.placeholder {
      case .loading?:
        ProgressView(model.text("phone.loading"))
      case .failed(let title, let message)?:
        PlaceholderView(
          symbol: "exclamationmark.triangle", title: title, message: message,
          retry: (model.text("phone.retry"), { model.send(.refresh) }))
      case .empty(let title, let message)? where layout.sections.allSatisfy(\.rows.isEmpty):
        PlaceholderView(symbol: "tray", title: title, message: message, retry: nil)
      default:
        List {
          if let subtitle = layout.subtitle {
            Text(subtitle).font(.subheadline).foregroundColor(.secondary)
          }
          ForEach(layout.sections) { section in
            Section {
              ForEach(section.rows) { row in
                RowView(row: row, actions: row.kind == .item ? rowActions : [], model: model)
              }
            } header: {
              if let title = section.title { Text(title) }
            }
          }
          footer(screen)
        }
      }
    }

    /// What the last action left, what is running and how many rows are selected.
    @ViewBuilder
    private func footer(_ screen: ScreenState) -> some View {
      let running = model.state.running
      if screen.result != nil || running > 0 || !screen.marked.isEmpty {
        Section {
          if let result = screen.result {
            Text(result.text).foregroundColor(result.isFailure ? .red : .secondary)
          }
          if running > 0 {
            Label(model.text("phone.running", ["count": "\(running)"]), systemImage: "hourglass")
          }
          if !screen.marked.isEmpty {
            Text(model.text("phone.marked", ["count": "\(screen.marked.count)"]))
          }
        }
      }
    }
  }

  extension View {
    /// A search field bound to `text`, only when `enabled`.
    @ViewBuilder
    func searchable(if enabled: Bool, text: Binding<String>, prompt: String) -> some View {
      if enabled {
        searchable(text: text, prompt: prompt)
      } else {
        self
      }
    }
  }

  /// A screen with nothing to list: loading failed, or nothing is there.
  struct PlaceholderView: View {
    let symbol: String
    let title: String
    let message: String?
    let retry: (String, () -> Void)?

    var body: some View {
      VStack(spacing: 12) {
        Image(systemName: symbol).font(.largeTitle).foregroundColor(.secondary)
        Text(title).font(.headline).multilineTextAlignment(.center)
        if let message {
          Text(message).font(.subheadline).foregroundColor(.secondary)
            .multilineTextAlignment(.center)
        }
        if let retry {
          Button(retry.0, action: retry.1).buttonStyle(.bordered)
        }
      }
      .padding()
      .frame(maxWidth: .infinity, maxHeight: .infinity)
    }
  }
#endif
