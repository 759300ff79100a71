import Essentials
import FeatureKit
import Foundation
import ViewKit

/// A tab of the console: one feature module with a home route.
public struct ConsoleTab: Sendable, Equatable {
  /// The module's id.
  public let id: String
  /// The module's name in the console's language.
  public let title: String
  /// The route the tab opens.
  public let home: String
}

/// One open screen: a route path and what is known of it.
public struct ScreenState: Sendable, Equatable {
  /// The route path, e.g. `fleet/3f2a9c1d0b7e`.
  public var path: String
  /// The last loaded view; nil until the first load finishes.
  public var view: ViewNode?
  /// Whether a load is under way.
  public var isLoading: Bool
  /// When the view was loaded.
  public var loadedAt: Date?
  /// The id of the row under the cursor (kept by id, so refreshes keep the place).
  public var cursorID: String?
  /// Rows marked with space for a batch action.
  public var marked: Set<String>
  /// The `f` filter: rows must contain it.
  public var filter: String
  /// The `/` search.
  public var search: String

  /// A screen about to load.
  public init(path: String) {
    self.path = path
    view = nil
    isLoading = true
    loadedAt = nil
    cursorID = nil
    marked = []
    filter = ""
    search = ""
  }
}

/// What a prompt at the bottom line is collecting.
public enum PromptPurpose: Sendable, Equatable {
  case search
  case filter
  /// The `index`th input of the action bound to `key`, with the values collected so far.
  case actionInput(key: Character, index: Int, values: [String])
}

/// A line of text being typed.
public struct Prompt: Sendable, Equatable {
  /// What it is for.
  public var purpose: PromptPurpose
  /// The label shown before the text.
  public var label: String
  /// What has been typed.
  public var text: String
  /// Whether to show dots instead of the text.
  public var isSecret: Bool
}

/// An action waiting for yes or no.
public struct PendingConfirmation: Sendable, Equatable {
  /// The question, naming the targets and their count.
  public var question: String
  /// What runs on yes.
  public var runs: [ConsoleEffect]
}

/// What the console is doing with key presses.
public enum ConsoleMode: Sendable, Equatable {
  case browsing
  case prompting(Prompt)
  case confirming(PendingConfirmation)
  case help
}

/// The whole state of the console; ``ConsoleUpdate`` is the only thing that changes it.
public struct ConsoleState: Sendable, Equatable {
  /// The tabs, in module order.
  public var tabs: [ConsoleTab]
  /// The tab shown.
  public var activeTab: Int
  /// One navigation stack per tab; never empty.
  public var stacks: [[ScreenState]]
  /// How keys are read.
  public var mode: ConsoleMode
  /// Terminal columns.
  public var width: Int
  /// Terminal rows.
  public var height: Int
  /// Row ids with an action still running.
  public var pending: Set<String>
  /// Actions still running.
  public var running: Int
  /// When any screen last finished loading.
  public var lastRefresh: Date?
  /// The latest error, kept until the next one or until dismissed.
  public var latestError: String?
  /// A short notice (an action's outcome).
  public var notice: String?
  /// Set when the user quits.
  public var shouldQuit: Bool

  /// The console's first state: every tab at its home route, the first tab shown.
  public init(tabs: [ConsoleTab], width: Int, height: Int) {
    self.tabs = tabs
    activeTab = 0
    stacks = tabs.map { [ScreenState(path: $0.home)] }
    mode = .browsing
    self.width = width
    self.height = height
    pending = []
    running = 0
    lastRefresh = nil
    latestError = nil
    notice = nil
    shouldQuit = false
  }

  /// Tabs from a registry: each module with a home route, in the registry's order.
  public static func tabs(of registry: FeatureRegistry, language: AppLanguage) -> [ConsoleTab] {
    registry.modules.compactMap { module in
      module.home.map { ConsoleTab(id: module.id, title: module.name.resolve(language), home: $0) }
    }
  }

  /// The screen shown.
  public var screen: ScreenState {
    get { stacks[activeTab][stacks[activeTab].count - 1] }
    set { stacks[activeTab][stacks[activeTab].count - 1] = newValue }
  }
}

/// What the runtime does on the update's behalf.
public enum ConsoleEffect: Sendable, Equatable {
  /// Load (or reload) the route at `path`, passing `search` to searchable routes.
  case load(path: String, search: String?)
  /// Run a command line; `affected` rows show as pending until it finishes.
  case run(arguments: [String], affected: [String], label: String)
  /// Leave the console.
  case quit
}

/// How a command run by the console ended.
public struct ActionOutcome: Sendable, Equatable {
  /// Whether it succeeded.
  public var succeeded: Bool
  /// Its error message, if any.
  public var message: String?

  /// An outcome.
  public init(succeeded: Bool, message: String? = nil) {
    self.succeeded = succeeded
    self.message = message
  }
}

/// Everything that can happen to the console.
public enum ConsoleMessage: Sendable, Equatable {
  case key(Key)
  case resized(width: Int, height: Int)
  /// A route finished loading.
  case loaded(path: String, view: ViewNode, at: Date)
  /// A command finished.
  case finished(label: String, affected: [String], outcome: ActionOutcome)
  /// The `--refresh` timer fired.
  case tick
}
