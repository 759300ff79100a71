#if os(iOS) && canImport(SwiftUI)
  import FeatureKit
  import SwiftUI

  /// The node list: cards, search, filter chips, + and batch selection.
  struct FleetListScreen: View {
    let model: FleetListModel
    @ObservedObject var changes: PhoneChanges

    init(model: FleetListModel) {
      self.model = model
      changes = model.changes
    }

    var body: some View {
      List {
        if let notice = model.notice {
          PhoneNoticeView(notice).listRowBackground(Color.clear)
        }
        if !model.pending.isEmpty {
          Label(
            model.text("phone.list.testing", ["count": String(model.pending.count)]),
            systemImage: "antenna.radiowaves.left.and.right"
          )
          .listRowBackground(Color.clear)
        }
        content
      }
      .listStyle(.insetGrouped)
      .phoneScreen(model.title)
      .searchable(
        text: Binding(get: { model.search }, set: { model.search = $0 }),
        prompt: model.context.common("phone.search")
      )
      .refreshable { await model.refresh() }
      .toolbar { toolbar }
      .phoneConfirmation(model)
    }

    @ViewBuilder
    private var content: some View {
      if !model.isLoaded {
        ProgressView(model.context.common("phone.loading")).frame(maxWidth: .infinity)
          .listRowBackground(Color.clear)
      } else if let failure = model.loadFailure {
        PhonePlaceholder(
          symbol: "exclamationmark.triangle",
          title: model.text("phone.list.failed", ["reason": failure]),
          action: (model.context.common("phone.retry"), { phoneTask { await model.refresh() } })
        ).listRowBackground(Color.clear)
      } else if model.rows.isEmpty {
        PhonePlaceholder(
          symbol: "antenna.radiowaves.left.and.right", title: model.text("phone.empty.title"),
          message: model.text("phone.empty.message"),
          action: (model.text("phone.action.addFirst"), { model.add() })
        ).listRowBackground(Color.clear)
      } else {
        filters
        let visible = model.visibleRows
        if visible.isEmpty {
          PhonePlaceholder(
            symbol: "line.3.horizontal.decrease.circle",
            title: model.text("phone.noMatch.title"),
            action: (model.text("phone.action.clearFilters"), { model.clearFilters() })
          ).listRowBackground(Color.clear)
        }
        ForEach(visible) { row in
          card(row)
        }
      }
    }

    private var filters: some View {
      let titles = model.chipTitles
      return ScrollView(.horizontal, showsIndicators: false) {
        HStack(spacing: 8) {
          PhoneFilterChip(
            titles.group,
            choices: [(nil, model.context.common("phone.all"))] + model.groups.map { ($0, $0) },
            selected: model.group
          ) { model.filter(group: $0) }
          PhoneFilterChip(
            titles.tag,
            choices: [(nil, model.context.common("phone.all"))] + model.tags.map { ($0, $0) },
            selected: model.tag
          ) { model.filter(tag: $0) }
          PhoneFilterChip(
            titles.status,
            choices: [(nil, model.context.common("phone.all"))]
              + InstanceStatus.allCases.map { ($0.rawValue, $0.label(model.context.language)) },
            selected: model.status?.rawValue
          ) { model.filter(status: $0.flatMap(InstanceStatus.init(rawValue:))) }
        }
      }
      .listRowBackground(Color.clear)
      .listRowInsets(EdgeInsets(top: 4, leading: 0, bottom: 4, trailing: 0))
    }

    private func card(_ row: FleetRow) -> some View {
      let card = model.card(row)
      return Button {
        model.tap(row.id)
      } label: {
        HStack(alignment: .top, spacing: 10) {
          if model.isSelecting {
            Image(systemName: model.selection.contains(row.id) ? "checkmark.circle.fill" : "circle")
              .foregroundColor(PhoneStyle.color("primary"))
          }
          VStack(alignment: .leading, spacing: 4) {
            HStack {
              Text(row.name).font(.headline).foregroundColor(PhoneStyle.color("ink"))
              Spacer(minLength: 6)
              if model.pending.contains(row.id) {
                ProgressView()
              } else {
                PhoneBadge(
                  row.status.label(model.context.language), tone: FleetPhone.tone(row.status))
              }
            }
            if let reason = card.reason {
              Text(reason).font(.subheadline).foregroundColor(
                PhoneStyle.color(FleetPhone.tone(row.status)))
            }
            ForEach(card.details, id: \.self) { line in
              Text(line).font(.footnote).foregroundColor(PhoneStyle.color("muted"))
            }
          }
        }
      }
      .swipeActions(edge: .trailing) {
        Button(role: .destructive) {
          model.askRemove(row.id)
        } label: {
          Label(model.text("action.remove"), systemImage: "trash")
        }
        Button {
          phoneTask { await model.test([row.id]) }
        } label: {
          Label(model.text("action.test"), systemImage: "bolt.horizontal")
        }
        .tint(PhoneStyle.color("primary"))
      }
    }

    @ToolbarContentBuilder
    private var toolbar: some ToolbarContent {
      ToolbarItem(placement: .navigationBarTrailing) {
        Button {
          model.add()
        } label: {
          Label(model.text("phone.action.add"), systemImage: "plus")
        }
      }
      if !model.rows.isEmpty {
        ToolbarItem(placement: .navigationBarLeading) {
          Button(
            model.isSelecting
              ? model.context.common("phone.done") : model.context.common("phone.select")
          ) { model.toggleSelecting() }
        }
      }
      if model.isSelecting {
        ToolbarItemGroup(placement: .bottomBar) {
          Button(model.context.common("phone.selectAll")) { model.selectAll() }
          Spacer()
          Button(model.text("phone.action.testCount", ["count": String(model.selection.count)])) {
            phoneTask { await model.testSelection() }
          }
          .disabled(model.selection.isEmpty)
          Button(
            model.text("phone.action.removeCount", ["count": String(model.selection.count)]),
            role: .destructive
          ) {
            model.removeSelection()
          }
          .disabled(model.selection.isEmpty)
        }
      }
    }
  }
#endif
