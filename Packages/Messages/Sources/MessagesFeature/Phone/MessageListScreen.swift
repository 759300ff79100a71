#if os(iOS) && canImport(SwiftUI)
  import FeatureKit
  import SwiftUI

  /// The archive: the sync line, filter chips, message cards with masked bodies and code
  /// chips, load more at the bottom; pull to refresh syncs on every state.
  struct MessageListScreen: View {
    let model: MessageListModel
    @ObservedObject var changes: PhoneChanges
    @State private var query = ""

    init(model: MessageListModel) {
      self.model = model
      changes = model.changes
    }

    var body: some View {
      List {
        Section {
          Label(
            MessagesPhone.syncLine(
              isSyncing: model.isSyncing, last: model.lastSynced, model.context),
            systemImage: model.isSyncing ? "arrow.triangle.2.circlepath" : "checkmark.circle"
          )
          .font(.footnote)
          .foregroundColor(PhoneStyle.color("muted"))
          if let notice = model.notice { PhoneNoticeView(notice) }
        }
        .listRowBackground(Color.clear)
        chips
        if !model.isLoaded {
          ProgressView(model.context.common("phone.loading")).frame(maxWidth: .infinity)
        } else if let failure = model.loadFailure {
          PhonePlaceholder(symbol: "exclamationmark.triangle", title: failure)
        } else if model.messages.isEmpty {
          PhonePlaceholder(
            symbol: model.isFiltered ? "line.3.horizontal.decrease.circle" : "tray",
            title: model.text(model.isFiltered ? "view.list.noMatch" : "phone.list.emptyTitle"),
            message: model.text(
              model.isFiltered ? "phone.list.noMatchHint" : "phone.list.emptyHint"),
            action: (model.text("phone.action.syncNow"), { phoneTask { await model.sync() } })
          )
          .listRowBackground(Color.clear)
        } else {
          Section(model.text("phone.list.count", ["count": String(model.messages.count)])) {
            ForEach(model.messages) { message in
              card(message)
            }
            if model.nextCursor != nil {
              Button(model.context.common("phone.more")) { phoneTask { await model.loadMore() } }
                .onAppear { phoneTask { await model.loadMore() } }
            }
          }
        }
      }
      .listStyle(.insetGrouped)
      .phoneScreen(model.title)
      .searchable(text: $query, prompt: model.context.common("phone.search"))
      .onSubmit(of: .search) { phoneTask { await model.search(query) } }
      .onChange(of: query) { value in
        if value.isEmpty { phoneTask { await model.search("") } }
      }
      .refreshable { await model.refresh() }
      .toolbar {
        ToolbarItemGroup(placement: .navigationBarTrailing) {
          Menu {
            Button(model.text(model.revealsAll ? "phone.action.hideAll" : "phone.action.showAll")) {
              model.toggleRevealAll()
            }
            Button(model.text("phone.action.conversations")) { model.openConversations() }
            Button(model.text("phone.action.outbox", ["count": String(model.waiting)])) {
              model.openOutbox()
            }
          } label: {
            Image(systemName: "ellipsis.circle")
          }
          Button {
            model.compose()
          } label: {
            Label(model.text("phone.action.compose"), systemImage: "square.and.pencil")
          }
        }
      }
    }

    private var chips: some View {
      let titles = model.chipTitles
      let all = model.context.common("phone.all")
      return ScrollView(.horizontal, showsIndicators: false) {
        HStack(spacing: 8) {
          PhoneFilterChip(
            titles.direction,
            choices: [
              (nil, all), ("incoming", model.text("phone.filter.incoming")),
              ("outgoing", model.text("phone.filter.outgoing")),
            ], selected: model.direction
          ) { value in phoneTask { await model.filter(direction: value) } }
          PhoneFilterChip(
            titles.instance, choices: [(nil, all)] + model.instances.map { ($0.id, $0.name) },
            selected: model.instanceID
          ) { value in phoneTask { await model.filter(instance: value) } }
          Button(titles.codes) { phoneTask { await model.filter(codesOnly: !model.codesOnly) } }
            .font(.subheadline)
            .padding(.horizontal, 12)
            .padding(.vertical, 6)
            .background(
              Capsule().fill(
                model.codesOnly ? PhoneStyle.color("primary").opacity(0.2) : Color.clear)
            )
            .overlay(Capsule().strokeBorder(PhoneStyle.color("line")))
        }
      }
      .listRowBackground(Color.clear)
      .listRowInsets(EdgeInsets(top: 4, leading: 0, bottom: 4, trailing: 0))
    }

    private func card(_ message: ArchivedMessage) -> some View {
      VStack(alignment: .leading, spacing: 6) {
        HStack {
          Text(message.peer).font(.headline)
          Spacer(minLength: 6)
          PhoneBadge(
            model.text(message.isIncoming ? "phone.received" : "phone.sent"),
            tone: message.isIncoming ? .info : .success)
        }
        Text(model.body(message))
          .foregroundColor(PhoneStyle.color(model.isRevealed(message) ? "ink" : "muted"))
          .onTapGesture { model.toggleReveal(message.id) }
        if let code = model.codeText(message) {
          PhoneCodeChip(
            shown: code, label: model.text("phone.codeChip", ["code": code])
          ) { model.copyCode(message.id) }
        }
        Text(model.meta(message)).font(.footnote).foregroundColor(PhoneStyle.color("muted"))
      }
      .contentShape(Rectangle())
      .swipeActions(edge: .leading) {
        Button(model.context.common(model.isRevealed(message) ? "phone.hide" : "phone.show")) {
          model.toggleReveal(message.id)
        }
        .tint(PhoneStyle.color("primary"))
      }
      .swipeActions(edge: .trailing) {
        Button(model.text("phone.action.conversations")) { model.open(message) }
      }
      .onLongPressGesture { model.open(message) }
    }
  }
#endif
