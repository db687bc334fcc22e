import Testing
@testable import HeritageServe

@Suite struct ServeAddressTests {
    @Test func portAloneListensOnLoopback() throws {
        #expect(try ServeAddress("8080") == ServeAddress(host: "127.0.0.1", port: 8080))
        #expect(try ServeAddress(":8080") == ServeAddress(host: "127.0.0.1", port: 8080))
    }

    @Test func namedHostsAndIPv6() throws {
        #expect(try ServeAddress("0.0.0.0:80") == ServeAddress(host: "0.0.0.0", port: 80))
        #expect(try ServeAddress("[::1]:9000") == ServeAddress(host: "::1", port: 9000))
        #expect(ServeAddress(host: "::1", port: 9000).description == "[::1]:9000")
    }

    @Test func badAddressesAreRefused() {
        for text in ["", "x", "70000", "host:", "::1:80", "[::1]80", "-1"] {
            #expect(throws: ServeError.self, "\(text)") { _ = try ServeAddress(text) }
        }
    }
}
