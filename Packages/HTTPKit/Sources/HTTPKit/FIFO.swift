/// A first-in, first-out queue with O(1) amortised removal at the front.
struct FIFO<Element> {
  private var items: [Element] = []
  private var head = 0

  /// Whether nothing is queued.
  var isEmpty: Bool { head == items.count }

  /// How many elements are queued.
  var count: Int { items.count - head }

  /// The oldest element.
  var first: Element? { isEmpty ? nil : items[head] }

  /// Queues `element` last.
  mutating func append(_ element: Element) {
    items.append(element)
  }

  /// Removes and returns the oldest element.
  @discardableResult
  mutating func removeFirst() -> Element? {
    guard !isEmpty else { return nil }
    let element = items[head]
    head += 1
    if head == items.count {
      items.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 64, head * 2 >= items.count {
      items.removeFirst(head)
      head = 0
    }
    return element
  }

  /// Every queued element, oldest first.
  var elements: ArraySlice<Element> { items[head...] }
}
