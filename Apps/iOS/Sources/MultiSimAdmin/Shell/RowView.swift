#if canImport(SwiftUI) && os(iOS)
  import AppCore
  import SwiftUI

  import UIKit

  /// One row of a screen: an item (tap opens it, swipe or long press for its actions), a key
  /// and value, or a line of text.
  @MainActor
  struct RowView: View {
    let row: PhoneRow
    let actions: [PhoneAction]
    @ObservedObject var model: PhoneModel

    var body: some View {
      switch row.kind {
      case .item:
        item
      case .keyValue, .field:
        LabeledContent(row.title) {
          Text(row.detail ?? "").foregroundColor(row.ink.map(Color.init(ink:)))
        }
      case .text:
        HStack {
          if !row.title.isEmpty {
            Text(row.title).foregroundColor(row.ink.map(Color.init(ink:)))
          }
          badges
        }
      }
    }

    private var item: some View {
      Button {
        model.send(.select(row: row.id))
        if row.link != nil { model.send(.open(row: row.id)) }
      } label: {
        HStack(spacing: 8) {
          if row.isMarked {
            Image(systemName: "checkmark.circle.fill").foregroundColor(.accentColor)
          }
          VStack(alignment: .leading, spacing: 2) {
            HStack {
              Text(row.title).foregroundColor(.primary)
              badges
            }
            if let subtitle = row.subtitle {
              Text(subtitle).font(.caption).foregroundColor(.secondary)
            }
          }
          Spacer(minLength: 4)
          if row.isPending {
            ProgressView()
          } else if let detail = row.detail {
            Text(detail).font(.caption).foregroundColor(.secondary)
          }
          if row.link != nil {
            Image(systemName: "chevron.right").font(.caption).foregroundColor(.secondary)
          }
        }
      }
      .swipeActions(edge: .trailing) {
        ForEach(actions) { action in
          Button(action.title, role: action.isDestructive ? .destructive : nil) {
            run(action)
          }
        }
      }
      .contextMenu {
        Button(model.text(row.isMarked ? "phone.unmark" : "phone.mark")) {
          model.send(.toggleMark(row: row.id))
        }
        ForEach(actions) { action in
          Button(action.title, role: action.isDestructive ? .destructive : nil) {
            run(action)
          }
        }
      }
    }

    @ViewBuilder
    private var badges: some View {
      ForEach(Array(row.badges.enumerated()), id: \.offset) { _, badge in
        let color = badge.ink.map(Color.init(ink:)) ?? .secondary
        Text(badge.text)
          .font(.caption2.weight(.semibold))
          .padding(.horizontal, 6)
          .padding(.vertical, 2)
          .foregroundColor(color)
          .background(Capsule().fill(color.opacity(0.15)))
      }
    }

    /// An action on this row: it becomes the selection (the marked rows, when some are).
    private func run(_ action: PhoneAction) {
      model.send(.select(row: row.id))
      model.send(.perform(action: action.key))
    }
  }

  extension Color {
    /// A theme colour that follows the light or dark appearance.
    init(ink: PhoneInk) {
      self.init(
        uiColor: UIColor { traits in
          let parts = traits.userInterfaceStyle == .dark ? ink.dark : ink.light
          return UIColor(
            red: parts.first ?? 0, green: parts.dropFirst().first ?? 0,
            blue: parts.dropFirst(2).first ?? 0, alpha: 1)
        })
    }
  }
#endif
