import Essentials
import FeatureKit
import Foundation
import LocalStore
import ViewKit

/// The messages feature (消息): one archive of every SMS from every device, conversations,
/// search, sending with an outbox, deletion and export.
public enum Messages {
  /// The feature as the app registers it.
  public static let module = FeatureModule(
    id: "messages", name: MessagesStrings.string("module.name"),
    summary: MessagesStrings.string("module.summary"),
    order: 20, home: "messages", routes: routes,
    commands: [MessagesCommands.messages, MessagesCommands.outbox, MessagesCommands.code],
    catalogue: MessagesStrings.catalogue, examples: MessagesExamples.all,
    completers: [PeerCompletion.completer], phoneScreens: MessagesPhone.screens)

  /// The tables this feature owns (module `messages`).
  public static let schema: SchemaModule = MessagesSchema.module

  // MARK: - Routes

  static let syncAction = RouteAction(
    key: "r", title: MessagesStrings.string("action.sync"),
    arguments: ["messages", "sync", "--flush"])

  /// `R`: the sync with its ceiling asked for (`--max-per-device`, issue 36), the default
  /// filled in: the console's way to the same setting as the command line's.
  static let syncCeilingAction = RouteAction(
    key: "R", title: MessagesStrings.string("action.syncCeiling"),
    arguments: ["messages", "sync", "--flush"],
    inputs: [
      .init(
        option: "max-per-device", label: MessagesStrings.string("field.maxPerDevice"),
        prefill: String(MessageSyncer.defaultMaxPerDevice))
    ])

  /// The console key that shows or masks message bodies (`c` stays free for copying a code).
  static let revealKey: Character = "v"

  static let revealAction = RouteAction(
    key: revealKey, title: MessagesStrings.string("action.showBodies"), toggles: "bodies")

  static let openOutbox = RouteAction(
    key: "o", title: MessagesStrings.string("action.outbox"), opens: "messages/outbox")

  static let openConversations = RouteAction(
    key: "p", title: MessagesStrings.string("action.conversations"), opens: "messages/conversations"
  )

  /// `s` everywhere but in a thread: the send form (`messages/send`).
  static let openSendForm = RouteAction(
    key: "s", title: MessagesStrings.string("action.send"), opens: "messages/send")

  /// The send form's fields; in a thread, To starts as the thread's number (editable).
  static func sendAction(toPeer: Bool) -> RouteAction {
    RouteAction(
      key: "s", title: MessagesStrings.string("action.send"), arguments: ["messages", "send"],
      inputs: [
        .init(option: "from", label: MessagesStrings.string("field.from")),
        .init(
          option: "to", label: MessagesStrings.string("field.to"),
          prefill: toPeer ? "{param:peer}" : nil),
        .init(option: "text", label: MessagesStrings.string("field.text")),
      ])
  }

  static var routes: [FeatureRoute] {
    [
      FeatureRoute(
        "messages", title: MessagesStrings.string("view.list.title"),
        actions: [
          syncAction, syncCeilingAction, openSendForm,
          RouteAction(
            key: "d", title: MessagesStrings.string("action.delete"),
            arguments: ["messages", "delete", "{selection}", "--yes"],
            confirmation: MessagesStrings.string("confirm.delete"), needsSelection: true,
            outcome: MessagesStrings.string("outcome.deleted"),
            targetColumns: ["instance", "peer", "time"]),
          revealAction, openConversations, openOutbox,
        ],
        // The console's `/` searches the whole archive (full-text, bodies included), not
        // only the masked rows on screen.
        searchable: true,
        load: { request in
          let environment = request.environment
          let archive = MessageArchive(store: try MessagesCommands.store(environment))
          let messages = try archive.list(filter: MessageFilter(search: request.search), limit: 100)
          var state = MessageListState(
            messages: messages, showBodies: request.flags.contains("bodies"),
            nextCursor: messages.count == 100
              ? messages.last.map { MessageCursor(after: $0).token } : nil,
            timeZone: MessagesDisplay.resolve(environment).timeZone, revealKey: revealKey)
          state.search = request.search
          // The codes that arrived lately go on top, judged as `msa code` judges them (by
          // when msa first archived them, not by a device's clock); not in a search's results.
          if (request.search ?? "").trimmingCharacters(in: .whitespaces).isEmpty {
            state.recentCodes = Array(
              try MessagesCommands.recentCodes(
                archive,
                since: environment.clock.now().addingTimeInterval(
                  -MessagesCommands.recentCodeWindow)
              ).prefix(50))
          }
          return state
        },
        view: { state, request in
          MessagesViews.list(state, language: request.environment.language)
        }),
      FeatureRoute(
        "messages/conversations", title: MessagesStrings.string("view.conversations.title"),
        actions: [syncAction, syncCeilingAction, openSendForm, openOutbox],
        load: { request in
          let environment = request.environment
          return ConversationsState(
            conversations: try MessageArchive(store: MessagesCommands.store(environment))
              .conversations(),
            timeZone: MessagesDisplay.resolve(environment).timeZone)
        },
        view: { state, request in
          MessagesViews.conversations(state, language: request.environment.language)
        }),
      FeatureRoute(
        "messages/outbox", title: MessagesStrings.string("view.outbox.title"),
        actions: [
          RouteAction(
            key: "r", title: MessagesStrings.string("action.flush"), arguments: ["outbox", "flush"]),
          RouteAction(
            key: "t", title: MessagesStrings.string("action.retry"),
            arguments: ["outbox", "retry", "{selection}"],
            needsSelection: true, outcome: MessagesStrings.string("outcome.retried"),
            targetColumns: ["id", "instance", "to"]),
          // An entry whose outcome is unknown: `l` looks for it on the device (never sends),
          // and `t` does the same for it; `S` sends it again, the user told first that it may
          // arrive twice.
          RouteAction(
            key: "l", title: MessagesStrings.string("action.check"),
            arguments: ["outbox", "check", "{selection}"],
            needsSelection: true, outcome: MessagesStrings.string("outcome.checked"),
            targetColumns: ["id", "instance", "to"]),
          RouteAction(
            key: "S", title: MessagesStrings.string("action.sendAgain"),
            arguments: ["outbox", "retry", "{selection}", "--send-again", "--yes"],
            confirmation: MessagesStrings.string("confirm.sendAgain"), needsSelection: true,
            outcome: MessagesStrings.string("outcome.sentAgain"),
            targetColumns: ["id", "instance", "to"]),
          RouteAction(
            key: "x", title: MessagesStrings.string("action.cancel"),
            arguments: ["outbox", "cancel", "{selection}"],
            confirmation: MessagesStrings.string("confirm.cancel"), needsSelection: true,
            outcome: MessagesStrings.string("outcome.cancelled"),
            targetColumns: ["id", "instance", "to"]),
          openSendForm,
        ],
        load: { request in
          let environment = request.environment
          return OutboxViewState(
            entries: try OutboxRepository(store: MessagesCommands.store(environment)).list(),
            timeZone: MessagesDisplay.resolve(environment).timeZone)
        },
        view: { state, request in
          MessagesViews.outbox(state, language: request.environment.language)
        }),
      FeatureRoute(
        "messages/send", title: MessagesStrings.string("view.send.title"),
        actions: [sendAction(toPeer: false), openOutbox], formKey: "s",
        load: { request in
          let store = try MessagesCommands.store(request.environment)
          return SendFormState(
            instanceNames: try InstanceRepository(store: store).list().map(\.name),
            waiting: try OutboxRepository(store: store).list(states: [.queued]).count)
        },
        view: { state, request in
          MessagesViews.sendForm(state, language: request.environment.language)
        }),
      FeatureRoute(
        "messages/:peer", title: MessagesStrings.string("view.thread.title"),
        actions: [
          syncAction, sendAction(toPeer: true),
          RouteAction(
            key: "d", title: MessagesStrings.string("action.deleteConversation"),
            arguments: ["messages", "delete", "--peer", "{param:peer}", "--yes"],
            confirmation: MessagesStrings.string("confirm.deleteConversation")),
          openOutbox,
        ],
        startsAtEnd: true,
        load: { request in
          try MessagesCommands.loadThread(
            peer: request.parameter("peer"), limit: 200, request.environment)
        },
        view: { state, request in
          MessagesViews.thread(state, language: request.environment.language)
        }),
    ]
  }
}
