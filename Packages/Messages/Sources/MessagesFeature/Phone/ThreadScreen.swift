#if os(iOS) && canImport(SwiftUI)
  import FeatureKit
  import SwiftUI

  /// One conversation as chat bubbles, opening at the newest, with a reply bar.
  struct ThreadScreen: View {
    let model: ThreadModel
    @ObservedObject var changes: PhoneChanges

    init(model: ThreadModel) {
      self.model = model
      changes = model.changes
    }

    var body: some View {
      ScrollViewReader { reader in
        ScrollView {
          LazyVStack(spacing: 10) {
            if let notice = model.notice { PhoneNoticeView(notice).padding(.horizontal) }
            if !model.isLoaded {
              ProgressView(model.context.common("phone.loading"))
            } else if let failure = model.loadFailure {
              PhonePlaceholder(symbol: "exclamationmark.triangle", title: failure)
            } else if model.messages.isEmpty {
              PhonePlaceholder(
                symbol: "bubble.left", title: model.text("view.thread.empty", ["peer": model.peer]))
            }
            if model.earlierCursor != nil {
              Button(model.text("phone.thread.earlier")) { phoneTask { await model.loadEarlier() } }
                .font(.footnote)
            }
            ForEach(model.messages) { message in
              bubble(message).id(message.id)
            }
          }
          .padding(.vertical)
        }
        .onChange(of: model.anchor) { anchor in
          if let anchor {
            reader.scrollTo(anchor, anchor: anchor == model.messages.last?.id ? .bottom : .top)
          }
        }
        .onAppear {
          if let anchor = model.anchor { reader.scrollTo(anchor, anchor: .bottom) }
        }
      }
      .safeAreaInset(edge: .bottom) { replyBar }
      .refreshable { await model.refresh() }
      .phoneScreen(model.title)
      .toolbar {
        ToolbarItem(placement: .navigationBarTrailing) {
          Button {
            model.toggleRevealAll()
          } label: {
            Label(
              model.text(model.revealsAll ? "phone.action.hideAll" : "phone.action.showAll"),
              systemImage: model.revealsAll ? "eye.slash" : "eye")
          }
        }
      }
    }

    private func bubble(_ message: ArchivedMessage) -> some View {
      let incoming = message.isIncoming
      return HStack {
        if !incoming { Spacer(minLength: 48) }
        VStack(alignment: incoming ? .leading : .trailing, spacing: 4) {
          Text(model.body(message))
            .padding(.horizontal, 12)
            .padding(.vertical, 8)
            .foregroundColor(PhoneStyle.color(incoming ? "ink" : "onBubbleOut"))
            .background(
              RoundedRectangle(cornerRadius: 16).fill(
                PhoneStyle.color(incoming ? "bubbleIn" : "bubbleOut")))
          if let code = model.codeText(message) {
            PhoneCodeChip(shown: code, label: model.text("phone.codeChip", ["code": code])) {
              model.copyCode(message.id)
            }
          }
          Text(model.meta(message)).font(.caption).foregroundColor(PhoneStyle.color("muted"))
        }
        if incoming { Spacer(minLength: 48) }
      }
      .padding(.horizontal)
    }

    private var replyBar: some View {
      VStack(spacing: 6) {
        Picker(
          model.text("phone.compose.from"),
          selection: Binding(get: { model.fromID ?? "" }, set: { model.fromID = $0 })
        ) {
          ForEach(model.instances, id: \.id) { instance in
            Text(instance.name).tag(instance.id)
          }
        }
        .pickerStyle(.menu)
        HStack {
          TextField(
            model.text("phone.compose.reply"),
            text: Binding(get: { model.draft }, set: { model.draft = $0 }), axis: .vertical
          )
          .textFieldStyle(.roundedBorder)
          .lineLimit(1...4)
          Button {
            phoneTask { await model.send() }
          } label: {
            Image(systemName: "arrow.up.circle.fill").font(.title2)
          }
          .disabled(model.isSending || model.draft.isEmpty)
          .accessibilityLabel(model.text("phone.action.send"))
        }
      }
      .padding(10)
      .background(.bar)
    }
  }
#endif
