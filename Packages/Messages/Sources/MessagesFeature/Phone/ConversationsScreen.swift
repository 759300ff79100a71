#if os(iOS) && canImport(SwiftUI)
  import FeatureKit
  import SwiftUI

  /// Conversations: one row per peer; a tap opens the chat.
  struct ConversationsScreen: View {
    let model: ConversationsModel
    @ObservedObject var changes: PhoneChanges

    init(model: ConversationsModel) {
      self.model = model
      changes = model.changes
    }

    var body: some View {
      List {
        Section {
          Label(
            MessagesPhone.syncLine(
              isSyncing: model.isSyncing, last: model.lastSynced, model.context),
            systemImage: "arrow.triangle.2.circlepath"
          )
          .font(.footnote).foregroundColor(PhoneStyle.color("muted"))
          if let notice = model.notice { PhoneNoticeView(notice) }
        }
        .listRowBackground(Color.clear)
        if !model.isLoaded {
          ProgressView(model.context.common("phone.loading")).frame(maxWidth: .infinity)
        } else if let failure = model.loadFailure {
          PhonePlaceholder(symbol: "exclamationmark.triangle", title: failure)
        } else if model.conversations.isEmpty {
          PhonePlaceholder(
            symbol: "bubble.left.and.bubble.right", title: model.text("view.conversations.empty"),
            message: model.text("phone.list.emptyHint"))
        } else {
          ForEach(model.conversations) { conversation in
            Button {
              model.open(conversation)
            } label: {
              VStack(alignment: .leading, spacing: 4) {
                Text(conversation.peer).font(.headline).foregroundColor(PhoneStyle.color("ink"))
                Text(model.preview(conversation)).foregroundColor(PhoneStyle.color("muted"))
                Text(model.details(conversation)).font(.footnote)
                  .foregroundColor(PhoneStyle.color("muted"))
              }
            }
          }
        }
      }
      .listStyle(.insetGrouped)
      .phoneScreen(model.title)
      .refreshable { await model.refresh() }
    }
  }
#endif
