import Foundation
import Store

/// How the server behaves; every field has a sane default and an environment variable.
public struct ServerConfiguration: Sendable {
    /// Address to listen on (`CONSTELLATION_HOST`).
    public var host = "127.0.0.1"
    /// Port to listen on, 0 for any free one (`CONSTELLATION_PORT`).
    public var port = 8080
    /// Where the signing key and the embedded PostgreSQL live (`CONSTELLATION_DATA_DIR`).
    public var dataDirectory = URL(fileURLWithPath: ".constellation")
    /// How long a connection token stays redeemable (`CONSTELLATION_TOKEN_TTL_SECONDS`).
    public var tokenLifetime: Duration = .seconds(300)
    /// How many different people may redeem one token, e.g. a QR shown to a group (`CONSTELLATION_MAX_REDEMPTIONS`).
    public var maximumRedemptionsPerToken = 50
    /// How many different people may redeem one printed badge, valid until its event ends: enough
    /// for a sociable attendee at a large conference, and a bound on what a photographed badge
    /// allows (`CONSTELLATION_MAX_BADGE_REDEMPTIONS`).
    public var maximumRedemptionsPerBadge = 300
    /// How long after its expiry a token scanned offline (while it was valid) may still be
    /// redeemed (`CONSTELLATION_OFFLINE_GRACE_SECONDS`).
    public var offlineGrace: Duration = .seconds(2 * 3600)
    /// Most database connections open at once (`CONSTELLATION_DB_POOL_SIZE`).
    public var databasePoolSize = 8
    /// The most people a network view holds, nearest first (`CONSTELLATION_NETWORK_LIMIT`): depth 2 can reach far.
    public var networkSizeLimit = 5_000
    /// The most people an event's network may hold (`CONSTELLATION_EVENT_NETWORK_LIMIT`): a larger
    /// event's view is refused (422 `event_too_large`) rather than laid out at any cost.
    public var eventNetworkLimit = 100_000
    /// How many pictures (layouts) and how many statistics the server keeps, each, least recently
    /// used forgotten first (`CONSTELLATION_GRAPH_CACHE_ENTRIES`): memory against recomputation.
    public var graphCacheEntries = 2_000
    /// How long an event's picture and summary are shared by everyone who asks for them
    /// (`CONSTELLATION_PICTURE_INTERVAL_MS`, 0 for none): the walls and live pages that follow one
    /// event cost one computation an interval, and show it at most that much older than the
    /// database (the pages refetch at most every 3 s, and draw a streamed pair until a picture has it).
    /// A computation that took longer than a quarter of it is shared four times as long as it took.
    public var pictureInterval: Duration = .seconds(2)
    /// How long a client may take to send a whole request, from its first byte
    /// (`CONSTELLATION_REQUEST_TIMEOUT_SECONDS`); slower ones get 408 and are disconnected.
    public var requestTimeout: Duration = .seconds(30)
    /// How long an idle keep-alive connection stays open (`CONSTELLATION_IDLE_TIMEOUT_SECONDS`).
    public var idleTimeout: Duration = .seconds(60)
    /// How long a live stream lasts at most (`CONSTELLATION_STREAM_LIFETIME_SECONDS`): it then ends
    /// cleanly and its client comes back with `Last-Event-ID`, authenticated again.
    public var streamLifetime: Duration = .seconds(3600)
    /// How long a live stream may be quiet before it is sent a keep-alive comment
    /// (`CONSTELLATION_STREAM_KEEPALIVE_SECONDS`): under the pages' 45 s of silence, which they take
    /// for a cut, and under the read timeout of any proxy in front (nginx's is 60 s).
    public var streamKeepAlive: Duration = .seconds(15)
    /// How many live streams (both kinds, all credentials) the server holds at once
    /// (`CONSTELLATION_MAX_STREAMS`); by default three quarters of its open-file limit, which it
    /// raises to the hard limit at start (`OpenFiles`). Past it, 503 `streams_full`.
    public var maximumStreams: Int? = nil
    /// How long a connection's answer may wait for its client to read it
    /// (`CONSTELLATION_DRAIN_TIMEOUT_SECONDS`): past it, a client that stopped reading (a live
    /// stream's, most likely) is disconnected.
    public var drainTimeout: Duration = .seconds(30)
    /// How long a verified API key is trusted without asking the database again
    /// (`CONSTELLATION_AUTH_CACHE_SECONDS`, 0 to ask every time): the longest a key revoked
    /// through another instance still works here.
    public var credentialCacheLifetime: Duration = .seconds(10)
    /// How long a request waits for a free database connection before 503 `database_busy`
    /// (`CONSTELLATION_DB_POOL_WAIT_MS`).
    public var databaseWait: Duration = .seconds(5)
    /// PostgreSQL's `statement_timeout` for the server's queries (`CONSTELLATION_STATEMENT_TIMEOUT_MS`);
    /// a statement past it is cancelled and answered 503 `database_timeout`. Migrations are exempt.
    public var statementTimeout: Duration = .seconds(30)
    /// Rate limits for the whole deployment (`CONSTELLATION_RATE_LIMITS`: `off`, or changes to the
    /// defaults such as `redeem=120/min,register_address=200/min`).
    public var rateLimits = RateLimits.defaults
    /// How many server instances share the deployment's limits (`CONSTELLATION_INSTANCES`): each
    /// counts in its own memory and enforces its share, the limit divided by this.
    public var instances = 1
    /// How many graph requests (layouts, statistics, growth, summaries, records, reports) one
    /// credential may have waiting or running at once (`CONSTELLATION_GRAPH_REQUESTS_PER_CREDENTIAL`); past it, 429.
    public var graphRequestsPerCredential = 2
    /// How many graph requests may be under way at once, server-wide (`CONSTELLATION_GRAPH_REQUESTS`),
    /// and how much memory, in MiB, their inputs may hold by their estimates
    /// (`CONSTELLATION_GRAPH_MEMORY_MB`); past either, 503 `graph_work_busy`.
    public var graphRequests = 64
    public var graphMemoryMB = 256
    /// Proxies whose `X-Forwarded-For` names the client (`CONSTELLATION_TRUSTED_PROXIES`).
    public var trustedProxies = TrustedProxies.none
    /// The address people reach the server at, e.g. `https://connect.example.org`
    /// (`CONSTELLATION_PUBLIC_URL`; no trailing slash): when set, every QR code holds
    /// `publicURL/c#TOKEN`, which a phone's camera opens; when nil, the raw token.
    public var publicURL: String?
    /// How long an organizer's view token works (`CONSTELLATION_VIEW_TOKEN_MINUTES`).
    public var viewTokenLifetime: Duration = .seconds(720 * 60)
    /// What `GET /metrics` asks for as `Authorization: Bearer …` (`CONSTELLATION_METRICS_TOKEN`);
    /// nil: the metrics are public (serve them on a network only the scraper reaches).
    public var metricsToken: String?
    /// How long a device link works, once (`CONSTELLATION_DEVICE_LINK_SECONDS`).
    public var deviceLinkLifetime: Duration = .seconds(120)
    /// How long an invitation link to organize an event works, once (`CONSTELLATION_INVITATION_HOURS`):
    /// a week by default, time for a message to reach a co-organizer and for them to answer.
    public var invitationLifetime: Duration = .seconds(7 * 24 * 3600)
    /// How far ahead an event may start when it is created (`CONSTELLATION_EVENT_HORIZON_DAYS`, 1
    /// to 3650; 730 by default): next year's conference, or the one after a biennial's, is
    /// created today; an event dated further ahead would hold its people's data as long past the
    /// purge rules, which count from its end.
    public var eventHorizon: Duration = .seconds(730 * 86_400)
    /// The most connections one client address holds open at once
    /// (`CONSTELLATION_MAX_CONNECTIONS_PER_ADDRESS`, 1 to 1,000,000; nil: 8,000, or half the
    /// open-file limit if that is less): a 10,000-person venue behind one address
    /// (`Tools/bench-eventday` at scale 2: about 4,000 streams and their requests) twice over,
    /// with most descriptors still free for everyone else. A trusted proxy's address is not counted.
    public var connectionsPerAddress: Int? = nil

    public init() {}

    /// How long after its end and the offline grace an event's personal data is kept by default
    /// (`CONSTELLATION_PURGE_AFTER_DAYS`, 0 to 365; 30 by default): the weeks in which organizers
    /// take their report and exports and attendees their last look, and no longer. Each event's
    /// organizers move its date, up to `purgeLongest`.
    public var purgeAfter: Duration = .seconds(30 * 86_400)
    /// The longest an event's personal data may be kept after its end and the grace
    /// (`CONSTELLATION_PURGE_LONGEST_DAYS`, 1 to 3650; 365 by default, a yearly event's
    /// organizers comparing with last year's), whatever its organizers choose. At least `purgeAfter`.
    public var purgeLongest: Duration = .seconds(365 * 86_400)
    /// How often the server looks for events to purge (`CONSTELLATION_PURGE_INTERVAL_SECONDS`, 1
    /// to 86400; 300 by default): at most that late, and again after downtime.
    public var purgeInterval: Duration = .seconds(300)
    /// Defaults overridden by `CONSTELLATION_*` variables; a malformed value is an error, not ignored.
    public init(environment: [String: String]) throws(ConfigurationError) {
        func integer(_ name: String, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int? {
            guard let text = environment[name] else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw ConfigurationError(variable: name, value: text, expected: "an integer in \(range)")
            }
            return value
        }
        if let host = environment["CONSTELLATION_HOST"] { self.host = host }
        if let port = try integer("CONSTELLATION_PORT", in: 0...65535) { self.port = port }
        if let directory = environment["CONSTELLATION_DATA_DIR"] { dataDirectory = URL(fileURLWithPath: directory) }
        if let seconds = try integer("CONSTELLATION_TOKEN_TTL_SECONDS", in: 10...86_400) { tokenLifetime = .seconds(seconds) }
        if let uses = try integer("CONSTELLATION_MAX_REDEMPTIONS", in: 1...100_000) { maximumRedemptionsPerToken = uses }
        if let uses = try integer("CONSTELLATION_MAX_BADGE_REDEMPTIONS", in: 1...100_000) { maximumRedemptionsPerBadge = uses }
        if let seconds = try integer("CONSTELLATION_OFFLINE_GRACE_SECONDS", in: 0...604_800) { offlineGrace = .seconds(seconds) }
        if let size = try integer("CONSTELLATION_DB_POOL_SIZE", in: 1...256) { databasePoolSize = size }
        if let limit = try integer("CONSTELLATION_NETWORK_LIMIT", in: 2...100_000) { networkSizeLimit = limit }
        if let limit = try integer("CONSTELLATION_EVENT_NETWORK_LIMIT", in: 2...1_000_000) { eventNetworkLimit = limit }
        if let entries = try integer("CONSTELLATION_GRAPH_CACHE_ENTRIES", in: 1...100_000) { graphCacheEntries = entries }
        if let milliseconds = try integer("CONSTELLATION_PICTURE_INTERVAL_MS", in: 0...60_000) {
            pictureInterval = .milliseconds(milliseconds)
        }
        if let seconds = try integer("CONSTELLATION_REQUEST_TIMEOUT_SECONDS", in: 1...3_600) { requestTimeout = .seconds(seconds) }
        if let seconds = try integer("CONSTELLATION_IDLE_TIMEOUT_SECONDS", in: 1...3_600) { idleTimeout = .seconds(seconds) }
        if let seconds = try integer("CONSTELLATION_STREAM_LIFETIME_SECONDS", in: 1...86_400) { streamLifetime = .seconds(seconds) }
        if let seconds = try integer("CONSTELLATION_STREAM_KEEPALIVE_SECONDS", in: 1...40) { streamKeepAlive = .seconds(seconds) }
        if let count = try integer("CONSTELLATION_MAX_STREAMS", in: 1...10_000_000) { maximumStreams = count }
        if let seconds = try integer("CONSTELLATION_DRAIN_TIMEOUT_SECONDS", in: 1...3_600) { drainTimeout = .seconds(seconds) }
        if let seconds = try integer("CONSTELLATION_AUTH_CACHE_SECONDS", in: 0...300) { credentialCacheLifetime = .seconds(seconds) }
        if let milliseconds = try integer("CONSTELLATION_DB_POOL_WAIT_MS", in: 1...600_000) { databaseWait = .milliseconds(milliseconds) }
        if let milliseconds = try integer("CONSTELLATION_STATEMENT_TIMEOUT_MS", in: 1...3_600_000) {
            statementTimeout = .milliseconds(milliseconds)
        }
        if let text = environment["CONSTELLATION_RATE_LIMITS"] {
            guard let limits = RateLimits(text) else {
                throw ConfigurationError(
                    variable: "CONSTELLATION_RATE_LIMITS", value: text,
                    expected: "off, or action=N/s|min|h entries such as redeem=120/min,register_address=200/min")
            }
            rateLimits = limits
        }
        if let text = environment["CONSTELLATION_PUBLIC_URL"] {
            guard let url = Self.publicURL(text) else {
                throw ConfigurationError(
                    variable: "CONSTELLATION_PUBLIC_URL", value: text,
                    expected: "an absolute http or https URL without query or fragment, e.g. https://connect.example.org")
            }
            publicURL = url
        }
        if let minutes = try integer("CONSTELLATION_VIEW_TOKEN_MINUTES", in: 1...10_080) { viewTokenLifetime = .seconds(minutes * 60) }
        if let seconds = try integer("CONSTELLATION_DEVICE_LINK_SECONDS", in: 10...900) { deviceLinkLifetime = .seconds(seconds) }
        if let hours = try integer("CONSTELLATION_INVITATION_HOURS", in: 1...720) { invitationLifetime = .seconds(hours * 3600) }
        if let days = try integer("CONSTELLATION_EVENT_HORIZON_DAYS", in: 1...3_650) { eventHorizon = .seconds(days * 86_400) }
        if let count = try integer("CONSTELLATION_MAX_CONNECTIONS_PER_ADDRESS", in: 1...1_000_000) { connectionsPerAddress = count }
        if let days = try integer("CONSTELLATION_PURGE_AFTER_DAYS", in: 0...365) { purgeAfter = .seconds(days * 86_400) }
        if let days = try integer("CONSTELLATION_PURGE_LONGEST_DAYS", in: 1...3_650) { purgeLongest = .seconds(days * 86_400) }
        guard purgeAfter <= purgeLongest else {
            throw ConfigurationError(
                variable: "CONSTELLATION_PURGE_AFTER_DAYS", value: environment["CONSTELLATION_PURGE_AFTER_DAYS"] ?? "30",
                expected: "at most CONSTELLATION_PURGE_LONGEST_DAYS (\(purgeLongest.components.seconds / 86_400))")
        }
        if let seconds = try integer("CONSTELLATION_PURGE_INTERVAL_SECONDS", in: 1...86_400) { purgeInterval = .seconds(seconds) }
        if let token = environment["CONSTELLATION_METRICS_TOKEN"], !token.isEmpty { metricsToken = token }
        if let count = try integer("CONSTELLATION_INSTANCES", in: 1...1_000) { instances = count }
        if let count = try integer("CONSTELLATION_GRAPH_REQUESTS_PER_CREDENTIAL", in: 1...100) { graphRequestsPerCredential = count }
        if let count = try integer("CONSTELLATION_GRAPH_REQUESTS", in: 1...10_000) { graphRequests = count }
        if let megabytes = try integer("CONSTELLATION_GRAPH_MEMORY_MB", in: 16...1_048_576) { graphMemoryMB = megabytes }
        if let text = environment["CONSTELLATION_TRUSTED_PROXIES"] {
            guard let proxies = TrustedProxies(text) else {
                throw ConfigurationError(
                    variable: "CONSTELLATION_TRUSTED_PROXIES", value: text, expected: "IP addresses and CIDR ranges, comma separated")
            }
            trustedProxies = proxies
        }
    }
}

extension ServerConfiguration {
    /// The bounds of an event's purge date.
    public var purgeBounds: PurgeBounds { PurgeBounds(grace: offlineGrace, longest: purgeLongest) }

    /// An event's purge date by default: `purgeAfter` after its end and the offline grace, or
    /// after now and the grace for an event that ended already (an import's).
    public func defaultPurgeDate(endingAt end: Date, now: Date = Date()) -> Date {
        let seconds = Double(offlineGrace.components.seconds + purgeAfter.components.seconds)
        return max(end, now).addingTimeInterval(seconds)
    }

    /// Settings that earlier releases read and this one does not, each with what to say once to
    /// whoever still sets it: the server goes on without them.
    public static let retiredSettings = [
        "CONSTELLATION_REDEMPTION_BATCHES":
            "CONSTELLATION_REDEMPTION_BATCHES is gone and ignored: a server sends one batch of redemptions at a time "
            + "(more never paid in any measurement)"
    ]

    /// `text` as a public URL (trailing slashes dropped), or nil unless it is an absolute http or
    /// https URL with a host and without user, query or fragment.
    static func publicURL(_ text: String) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
            components.user == nil, components.password == nil, components.query == nil, components.fragment == nil,
            !text.contains(where: \.isWhitespace)
        else { return nil }
        var url = text
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    /// The link a device link's QR code holds, `publicURL/#link=TOKEN` (the web page takes the
    /// profile from there); nil without a public URL (the code holds the token).
    func deviceLink(to token: String) -> String? {
        publicURL.map { "\($0)/#link=\(token)" }
    }

    /// The link a QR code holds for `token`, `publicURL/c#TOKEN`; nil without a public URL (the code holds the token).
    func link(to token: String) -> String? {
        publicURL.map { "\($0)/c#\(token)" }
    }
}

/// An environment variable whose value cannot be used.
public struct ConfigurationError: Error, CustomStringConvertible {
    public let variable: String
    public let value: String
    public let expected: String

    public var description: String { "\(variable)=\(value) is not valid: expected \(expected)" }
}
