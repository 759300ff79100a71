import HTTPKit
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The readiness set over real pipes: what is watched, under which token, and what a closed
/// and reused descriptor number carries.
@Suite struct ReadinessSetTests {
  func makePipe() throws -> (read: Int32, write: Int32) {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    return (ends[0], ends[1])
  }

  func waitOnce(_ set: ReadinessSet, timeout: Int32 = 0) -> [ReadinessSet.Event] {
    var ready: [ReadinessSet.Event] = []
    set.wait(timeoutMilliseconds: timeout, into: &ready)
    return ready
  }

  @Test func reportsWhatIsReadyUnderItsToken() throws {
    let set = try ReadinessSet()
    let (readEnd, writeEnd) = try makePipe()
    defer {
      close(readEnd)
      close(writeEnd)
    }
    try set.watch(readEnd, token: 7, events: Int16(POLLIN))
    #expect(waitOnce(set).isEmpty)
    var byte: UInt8 = 1
    #expect(write(writeEnd, &byte, 1) == 1)
    let ready = waitOnce(set, timeout: 1000)
    #expect(ready.map(\.token) == [7])
    #expect(ready.first?.fd == readEnd)
    #expect(ready.first?.readable == true)
    #expect(ready.first?.writable == false)
    // Level-triggered, as poll(): unread data is reported again.
    #expect(waitOnce(set).map(\.token) == [7])

    // A changed interest: the write end, writable at once; then watched for nothing.
    try set.watch(writeEnd, token: 8, events: Int16(POLLOUT))
    #expect(Set(waitOnce(set).map(\.token)) == [7, 8])
    try set.watch(writeEnd, token: 8, events: 0)
    set.unwatch(readEnd)
    #expect(waitOnce(set).isEmpty)
    #expect(set.count == 0)
  }

  @Test func aReusedDescriptorNumberCarriesOnlyItsNewToken() throws {
    let set = try ReadinessSet()
    let (firstRead, firstWrite) = try makePipe()
    try set.watch(firstRead, token: 1, events: Int16(POLLIN))
    set.unwatch(firstRead)
    close(firstRead)
    close(firstWrite)
    // The kernel hands out the lowest free numbers: the same ones again.
    let (readEnd, writeEnd) = try makePipe()
    defer {
      close(readEnd)
      close(writeEnd)
    }
    #expect(readEnd == firstRead)
    try set.watch(readEnd, token: 2, events: Int16(POLLIN))
    var byte: UInt8 = 1
    #expect(write(writeEnd, &byte, 1) == 1)
    #expect(waitOnce(set, timeout: 1000).map(\.token) == [2])
  }

  @Test func aPeerThatClosedIsReadable() throws {
    let set = try ReadinessSet()
    let (readEnd, writeEnd) = try makePipe()
    defer { close(readEnd) }
    try set.watch(readEnd, token: 3, events: Int16(POLLIN))
    close(writeEnd)
    let ready = waitOnce(set, timeout: 1000)
    #expect(ready.first?.readable == true)
  }
}
