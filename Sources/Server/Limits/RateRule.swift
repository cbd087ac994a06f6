import Foundation

/// How often something may happen: `count` per `period`, in a burst or spread out (a token bucket
/// that holds `count` and refills at `count / period`). Written `60/min`, `10/s`, `1000/h`.
public struct RateRule: Sendable, Equatable, CustomStringConvertible {
    public let count: Int
    public let period: Duration

    public init(_ count: Int, per period: Duration) {
        precondition(count > 0 && period > .zero, "a rate is positive")
        self.count = count
        self.period = period
    }

    /// `N/s`, `N/min` or `N/h`, N a positive integer; nil for anything else.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let count = Int(parts[0]), count > 0, count <= 10_000_000 else { return nil }
        switch parts[1] {
        case "s": self.init(count, per: .seconds(1))
        case "min": self.init(count, per: .seconds(60))
        case "h": self.init(count, per: .seconds(3_600))
        default: return nil
        }
    }

    /// This rule's share for one of `instances` servers that each count on their own.
    public func share(of instances: Int) -> RateRule {
        RateRule(max(1, (count + instances - 1) / instances), per: period)
    }

    var perSecond: Double { Double(count) / (period / .seconds(1)) }

    public var description: String {
        switch period {
        case .seconds(1): "\(count)/s"
        case .seconds(60): "\(count)/min"
        case .seconds(3_600): "\(count)/h"
        default: "\(count)/\(period)"
        }
    }
}

/// What is limited, and how much, per credential and per client address.
public struct RateLimits: Sendable, Equatable {
    /// Something a client does that is counted.
    public enum Action: String, Sendable, CaseIterable {
        case register, mint, redeem
        /// A request whose API key was missing or wrong.
        case authFailure = "auth_failure"
        /// A join code that was not the event's.
        case joinGuess = "join_guess"
        /// A view link made by an organizer: each is a credential.
        case viewLink = "view_link"
        /// A registration through a code (a person's, an event's, or its join code), counted per
        /// address: each new profile can show codes, so without it registrations could be chained.
        case registerThroughCode = "register_code"
        /// An event created: each is a slug taken and rows kept.
        case createEvent = "create_event"
        /// An invitation to organize an event made, to a profile or as a link: each is a row kept
        /// until it is answered or expires.
        case invite
        /// A member's choices at an event changed (`PATCH /v1/events/{event}/me`): each makes the
        /// event's shared pictures and summaries anew.
        case choices
        /// An event's report or record fetched by an organizer: each is the whole event (a report
        /// of a 10,000-person event is 1.4 MB), read and laid out once an interval, sent each time.
        case report
    }

    /// Per action: the limit per credential (profile), per client address and per event; nil is no limit.
    /// `register` per credential counts the newcomers whose registration carried that person's code.
    public var perCredential: [Action: RateRule]
    public var perAddress: [Action: RateRule]
    /// Per event: registrations that came through the event (its join code, or one of its codes
    /// being scanned), which count here instead of against their address; and wrong join codes at
    /// the event from everyone: past that one, only people who have guessed wrong already are held
    /// back, so a crowd that types its code right is never locked out.
    public var perEvent: [Action: RateRule]

    /// Generous for people, tight for scripts, sized for a 10,000-person conference behind one
    /// address with twice its peak to spare (docs/configuration-and-operations.md#rate-limits has
    /// the arithmetic): someone scanning ten people a minute, or a phone renewing its code, never
    /// meets the per-person limits; a venue's address holds 3,000 scans and 3,000 new codes a minute.
    /// Wrong join codes are counted per person and per event, not per address, so that one person's
    /// typos do not lock a venue's shared address out. A registration that comes through an event
    /// counts against the event's 900 a minute (its door at 400 a minute, twice over), one that
    /// comes through a person's code against that person's 60 a minute, and one with nothing behind
    /// it against its address's 60. Every registration through a code also counts against its
    /// address's 1,200 a minute for them: a script's new profiles, each able to show a code or open
    /// an event, do not bring it a fresh budget. An organizer creates 30 events an hour (a
    /// conference's tracks and side events set up in one sitting), an address 120 (four such
    /// organizers at one office), and invites people to organize 60 times an hour, by profile or
    /// by link; a member changes their choices at an event 10 times a minute (a change of mind and
    /// back, not a loop); an organizer fetches 60 reports or records an hour (printed, saved, shared
    /// with the team: one a minute, not a loop: one organizer's loop of reports at a 10,000-person
    /// event pulled 600 MB a second from the server).
    public static let defaults = RateLimits(
        perCredential: [
            .mint: RateRule(60, per: .seconds(60)), .redeem: RateRule(60, per: .seconds(60)), .joinGuess: RateRule(10, per: .seconds(60)),
            .viewLink: RateRule(20, per: .seconds(3_600)), .register: RateRule(60, per: .seconds(60)),
            .createEvent: RateRule(30, per: .seconds(3_600)), .choices: RateRule(10, per: .seconds(60)),
            .invite: RateRule(60, per: .seconds(3_600)), .report: RateRule(60, per: .seconds(3_600)),
        ],
        perAddress: [
            .register: RateRule(60, per: .seconds(60)), .mint: RateRule(3_000, per: .seconds(60)),
            .redeem: RateRule(3_000, per: .seconds(60)), .authFailure: RateRule(60, per: .seconds(60)),
            .registerThroughCode: RateRule(1_200, per: .seconds(60)), .createEvent: RateRule(120, per: .seconds(3_600)),
        ],
        perEvent: [.joinGuess: RateRule(120, per: .seconds(60)), .register: RateRule(900, per: .seconds(60))])

    public static let off = RateLimits(perCredential: [:], perAddress: [:])

    public init(perCredential: [Action: RateRule], perAddress: [Action: RateRule], perEvent: [Action: RateRule] = [:]) {
        self.perCredential = perCredential
        self.perAddress = perAddress
        self.perEvent = perEvent
    }

    /// `off`, or the defaults changed by `action=N/period`, `action_address=N/period` and
    /// `action_event=N/period` entries, comma separated (e.g. `redeem=120/min,register_address=200/min`).
    public init?(_ text: String) {
        if text == "off" {
            self = .off
            return
        }
        self = .defaults
        for entry in text.split(separator: ",") {
            let parts = entry.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let rule = RateRule(parts[1].trimmingCharacters(in: .whitespaces)) else { return nil }
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            if name.hasSuffix("_address"), let action = Action(rawValue: String(name.dropLast("_address".count))) {
                perAddress[action] = rule
            } else if name.hasSuffix("_event"), let action = Action(rawValue: String(name.dropLast("_event".count))),
                perEvent[action] != nil
            {
                perEvent[action] = rule
            } else if let action = Action(rawValue: name), ![.authFailure, .registerThroughCode].contains(action) {
                perCredential[action] = rule
            } else {
                return nil
            }
        }
    }

    /// The actions whose limits hold for the whole deployment, counted where every server sees
    /// them (`DeploymentLimits`): registrations, events created, wrong join codes and reports are
    /// rare enough to count in PostgreSQL, and a venue behind one address, or an organizer behind a
    /// balancer, must not get a server's share of them per server. Scans, new codes and wrong keys
    /// come by the thousand a minute: each server counts its share (`share(of:)`).
    public static let deploymentWide: Set<Action> = [.register, .registerThroughCode, .createEvent, .joinGuess, .report]

    /// These limits for `actions` only.
    public func only(_ actions: Set<Action>) -> RateLimits {
        RateLimits(
            perCredential: perCredential.filter { actions.contains($0.key) }, perAddress: perAddress.filter { actions.contains($0.key) },
            perEvent: perEvent.filter { actions.contains($0.key) })
    }

    /// The buckets one `action` counts against: its credential's, its address's (under
    /// `addressAction`, if given) and its event's, for those given and limited.
    func buckets(
        _ action: Action, credential: UUID?, address: String?, event: UUID?, addressAction: Action? = nil
    ) -> [(rule: RateRule, action: Action, subject: String)] {
        let perAddressAction = addressAction ?? action
        return [
            (perCredential[action], action, credential.map { "profile:\($0)" }),
            (self.perAddress[perAddressAction], perAddressAction, address.map { "address:\($0)" }),
            (perEvent[action], action, event.map { "event:\($0)" }),
        ].compactMap { rule, action, subject in rule.flatMap { rule in subject.map { (rule, action, $0) } } }
    }

    /// The rule for wrong guesses at a shared secret, whatever counts the buckets: given the tokens
    /// the guesser's bucket holds (of `capacity`), then the event's if it is limited, the index of
    /// the bucket that refuses, if one does. The guesser's must hold one; the event's room counts
    /// only for someone who has guessed wrong lately (whose own bucket is not full), so that one
    /// stranger's flood locks out nobody else.
    static func refusingGuess(tokens: [Double], capacity: Int) -> Int? {
        tokens.indices.first { tokens[$0] < 1 && ($0 == 0 || tokens[0] < Double(capacity)) }
    }

    /// Every rule's share for one of `instances` servers that each count on their own.
    public func share(of instances: Int) -> RateLimits {
        RateLimits(
            perCredential: perCredential.mapValues { $0.share(of: instances) },
            perAddress: perAddress.mapValues { $0.share(of: instances) }, perEvent: perEvent.mapValues { $0.share(of: instances) })
    }
}
