#if os(iOS) && canImport(SwiftUI)
  import Essentials
  import FeatureKit
  import SwiftUI
  import UniformTypeIdentifiers

  /// 设置: local data, the log center, plain HTTP, about.
  struct SettingsScreen: View {
    let model: SettingsModel
    @ObservedObject var changes: PhoneChanges

    init(model: SettingsModel) {
      self.model = model
      changes = model.changes
    }

    var body: some View {
      List {
        if let failure = model.loadFailure {
          PhoneNoticeView(PhoneNotice(failure, tone: .danger))
        }
        Section {
          Button {
            model.openData()
          } label: {
            row("internaldrive", model.text("phone.settings.data"), model.dataSummary)
          }
          Button {
            model.openLogs()
          } label: {
            row("list.bullet.rectangle", model.text("phone.settings.logs"), model.logSummary)
          }
        }
        Section(model.text("phone.settings.plainHTTP")) {
          let plain = model.state?.plainHTTP ?? []
          if plain.isEmpty {
            Label(model.text("phone.settings.plainHTTPNone"), systemImage: "lock")
          } else {
            PhoneNoticeView(
              PhoneNotice(
                model.text("phone.settings.plainHTTPWarning", ["count": String(plain.count)]),
                tone: .warning))
            ForEach(plain, id: \.id) { instance in
              PhoneValueRow(instance.name, instance.origin, tone: .warning)
            }
          }
        }
        Section(model.text("phone.settings.about")) {
          ForEach(model.about, id: \.label) { row in
            PhoneValueRow(row.label, row.value)
          }
        }
      }
      .listStyle(.insetGrouped)
      .phoneScreen(model.title)
      .refreshable { await model.refresh() }
    }

    private func row(_ symbol: String, _ title: String, _ detail: String) -> some View {
      HStack {
        Image(systemName: symbol).foregroundColor(PhoneStyle.color("primary"))
        VStack(alignment: .leading, spacing: 2) {
          Text(title).foregroundColor(PhoneStyle.color("ink"))
          Text(detail).font(.footnote).foregroundColor(PhoneStyle.color("muted"))
        }
        Spacer()
        Image(systemName: "chevron.right").font(.caption).foregroundColor(PhoneStyle.color("muted"))
      }
    }
  }

  /// 本地数据: size and rows, the maintenance buttons, the file made and where it went.
  struct LocalDataScreen: View {
    let model: LocalDataModel
    @ObservedObject var changes: PhoneChanges

    init(model: LocalDataModel) {
      self.model = model
      changes = model.changes
    }

    var body: some View {
      List {
        SettingsPhone.progress(
          notice: model.notice, file: model.file, busy: model.busy, context: model.context)
        if let failure = model.loadFailure { PhoneNoticeView(PhoneNotice(failure, tone: .danger)) }
        if let summary = model.summary {
          Section {
            PhoneValueRow(model.text("phone.data.size"), SettingsPhone.bytes(summary.databaseBytes))
            if summary.readOnly {
              PhoneNoticeView(PhoneNotice(model.text("phone.data.readOnly"), tone: .warning))
            }
          }
          Section(model.text("phone.data.rows")) {
            ForEach(model.tables, id: \.label) { row in PhoneValueRow(row.label, row.value) }
          }
        }
        Section {
          VStack(spacing: 10) {
            HStack(spacing: 10) {
              Button(model.text("button.check")) { phoneTask { await model.check() } }
                .buttonStyle(PhoneButtonStyle())
              Button(model.text("button.compact")) { phoneTask { await model.compact() } }
                .buttonStyle(PhoneButtonStyle())
            }
            Button(model.text("action.backup")) { phoneTask { await model.backup() } }
              .buttonStyle(PhoneButtonStyle(.primary))
            Button(model.text("phone.data.restore")) { model.chooseBackup() }
              .buttonStyle(PhoneButtonStyle(.danger))
            Button(model.text("action.exportRegistry")) {
              phoneTask { await model.exportRegistry() }
            }
            .buttonStyle(PhoneButtonStyle())
          }
          .disabled(model.busy != nil)
          .listRowBackground(Color.clear)
        }
      }
      .listStyle(.insetGrouped)
      .phoneScreen(model.title)
      .refreshable { await model.refresh() }
      .fileImporter(
        isPresented: Binding(
          get: { model.isPickingBackup }, set: { if !$0 { model.cancelPicking() } }),
        allowedContentTypes: [.data]
      ) { result in
        if case .success(let url) = result { model.picked(url) } else { model.cancelPicking() }
      }
      .phoneConfirmation(model)
    }
  }

  /// The log center: filters, records, clear, trim and export in a menu.
  struct LogListScreen: View {
    let model: LogListModel
    @ObservedObject var changes: PhoneChanges
    @State private var query = ""

    init(model: LogListModel) {
      self.model = model
      changes = model.changes
    }

    var body: some View {
      List {
        SettingsPhone.progress(
          notice: model.notice, file: model.file, busy: model.busy, context: model.context)
        chips
        if !model.isLoaded {
          ProgressView(model.context.common("phone.loading")).frame(maxWidth: .infinity)
        } else if let failure = model.loadFailure {
          PhonePlaceholder(symbol: "exclamationmark.triangle", title: failure)
        } else if model.items.isEmpty {
          PhonePlaceholder(symbol: "list.bullet.rectangle", title: model.text("logs.empty.title"))
        } else {
          ForEach(Array(model.shown), id: \.id) { item in
            Button {
              model.open(item)
            } label: {
              VStack(alignment: .leading, spacing: 4) {
                HStack(alignment: .top) {
                  Text(item.message).foregroundColor(PhoneStyle.color("ink"))
                  Spacer(minLength: 6)
                  PhoneBadge(model.levelName(item.level), tone: SettingsPhone.tone(item.level))
                }
                Text(model.meta(item)).font(.footnote).foregroundColor(PhoneStyle.color("muted"))
              }
            }
          }
          if model.hasMore {
            Button(model.context.common("phone.more")) { phoneTask { await model.loadMore() } }
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
        ToolbarItem(placement: .navigationBarTrailing) {
          Menu {
            Button(model.text("phone.logs.export.csv")) { phoneTask { await model.export(.csv) } }
            Button(model.text("phone.logs.export.jsonl")) {
              phoneTask { await model.export(.jsonl) }
            }
            Divider()
            ForEach(LogListModel.Trim.allCases, id: \.self) { trim in
              Button(model.text(trim.key)) { model.askTrim(trim) }
            }
            Button(model.text("phone.logs.clear"), role: .destructive) {
              phoneTask { await model.askClear() }
            }
          } label: {
            Image(systemName: "ellipsis.circle")
          }
        }
      }
      .phoneConfirmation(model)
    }

    private var chips: some View {
      let titles = model.chipTitles
      let all = model.context.common("phone.all")
      return ScrollView(.horizontal, showsIndicators: false) {
        HStack(spacing: 8) {
          PhoneFilterChip(
            titles.kind,
            choices: [(nil, all)]
              + LogKind.allCases.map { ($0.rawValue, $0.title(model.context.language)) },
            selected: model.kind?.rawValue
          ) { value in
            phoneTask { await model.filter(kind: value.flatMap(LogKind.init(rawValue:))) }
          }
          PhoneFilterChip(
            titles.level,
            choices: [(nil, all)]
              + [LogLevel.info, .notice, .warning, .error].map {
                ($0.rawValue, model.levelName($0))
              },
            selected: model.level?.rawValue
          ) { value in
            phoneTask { await model.filter(level: value.flatMap(LogLevel.init(rawValue:))) }
          }
          PhoneFilterChip(
            titles.instance, choices: [(nil, all)] + model.instances.map { ($0.id, $0.name) },
            selected: model.instanceID
          ) { value in phoneTask { await model.filter(instance: value) } }
        }
      }
      .listRowBackground(Color.clear)
      .listRowInsets(EdgeInsets(top: 4, leading: 0, bottom: 4, trailing: 0))
    }
  }

  /// One record: its fields as label: value.
  struct LogRecordScreen: View {
    let model: LogRecordModel
    @ObservedObject var changes: PhoneChanges

    init(model: LogRecordModel) {
      self.model = model
      changes = model.changes
    }

    var body: some View {
      List {
        if let failure = model.loadFailure {
          PhonePlaceholder(symbol: "exclamationmark.triangle", title: failure)
        }
        ForEach(Array(model.sections.enumerated()), id: \.offset) { _, section in
          Section(section.title ?? "") {
            ForEach(Array(section.rows.enumerated()), id: \.offset) { _, row in
              PhoneValueRow(row.label, row.value)
            }
          }
        }
      }
      .listStyle(.insetGrouped)
      .phoneScreen(model.title)
      .refreshable { await model.refresh() }
    }
  }

  extension SettingsPhone {
    /// The last action's notice with a link to share the file it made, then what is running
    /// (the local data and log screens start their lists with these).
    @ViewBuilder
    static func progress(
      notice: PhoneNotice?, file: PhoneFile?, busy: String?, context: PhoneContext
    ) -> some View {
      if let notice {
        Section {
          PhoneNoticeView(notice)
          if let file {
            ShareLink(item: file.url) {
              Label(context.common("phone.share"), systemImage: "square.and.arrow.up")
            }
          }
        }
      }
      if let busy { Label(busy, systemImage: "hourglass") }
    }
  }
#endif
