/// `--json` shapes of the commands whose rows are a list: `data` is always an object that
/// names its rows (`{"conversations": [...]}`), never a bare array.
extension MessagesCommands {
  /// `messages conversations`.
  struct ConversationsPayload: Encodable, Sendable {
    let conversations: [ConversationPayload]
  }

  /// `messages show PEER`.
  struct ThreadPayload: Encodable, Sendable {
    let peer: String
    let messages: [ListedMessage]
  }

  /// `outbox list|flush|retry|cancel`.
  struct OutboxPayload: Encodable, Sendable {
    let entries: [OutboxEntry]
  }

  /// `messages delete`.
  struct DeletePayload: Encodable, Sendable {
    let instances: [DeleteRow]
  }
}
