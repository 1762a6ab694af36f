"""Frame words of the commitment extractor: one table of the words that decide a clause's frame, by role.

A *frame word* does not name goods, places or players; it says what the clause does with
them: offers them (a give or offer verb), asks for them (a receive verb), consents to a
proposal, refuses or negates, hedges, plans, asks a question, reports what someone else said
or did, or states a condition.  :data:`FRAME_WORDS` lists every role with its words, and
:data:`FRAME_PHRASES` the roles said by a phrase (question openers, checks of a restatement,
consent phrases).  A word may hold several roles ("offer" is a give verb; "offered" a past
tense, a report and a "to" frame); :func:`roles_of` lists a word's roles.  The rules of
:mod:`.commitments`, :mod:`._actions` and :mod:`._consent` read a role from these tables; a rule
that needs only the few words of its own shape (the "not" / "never" of a negated opinion, the
"accept" / "take" of taking an offer) names them where it reads them.

Besides the tables, the readers that use only them: :func:`cancelled` (is the act at a verb
negated, hedged, deliberated or a past plan: rule 6 and the guide's R5, R7, R8), each of its
rules one small function; :func:`verb_role` (is the word a give, offer or receive verb); and
:func:`has_phrase`.

The words are those of extractor version 4 (moved here, not changed; the list of plan words
the subject look-up reads replaced an unused one).  The tokenizer expands contractions and chat
spellings first ("okay" is read as "ok", "gonna" as "going to", "its" as "it is"), so the tables are
built through it (:func:`._tokens.normal_words`, :func:`._tokens.normal_phrase`): a raw form in a
table is read as the form the rules see, and a one-word entry the tokenizer splits is refused when
the module loads.  No entry can be written in a form that never matches.

>>> sorted(roles_of("offered"))
['past', 'reported', 'to frame']
>>> cancelled("i will not give you the food".split(), 3)
True
>>> cancelled("i do not mind giving you the food".split(), 4)
False
"""

from __future__ import annotations

from collections.abc import Mapping

from ._tokens import normal_phrase, normal_words

__all__ = [
    "FRAME_WORDS", "FRAME_PHRASES", "ROLE_NOTES", "roles_of", "cancelled", "has_phrase", "verb_role", "VERB_CUE_WORDS",
    "NEGATIONS", "HEDGES", "PLANS", "PLANNED_GIVE", "GIVE_VERBS", "OFFER_VERBS", "RECEIVE_VERBS", "ORDER_VERBS", "SPEAKER_GERUNDS",
    "PAST_VERBS", "AGREEMENT", "HYPOTHETICAL_PAST", "NOUN_OPENERS", "NAMED_PROPOSALS",
    "REPORTED", "REPORTING", "CONDITIONS", "TAGS", "INTERJECTIONS", "ASKED_WITHIN", "COMPLAINTS",
    "DELIBERATE", "OPINIONS", "WISHES", "ADVICE", "CONSENT_WORDS", "CONSENT_VERBS", "CONTENT_WORDS", "CONTENT",
    "COMMITTING", "HOPED", "WISHED", "DEAL_NOUNS", "DEAL_NEGATORS", "PROPOSAL_NOUNS", "FURTHER", "WILLING", "TO_FRAMES", "SUITS",
    "SPEAKER", "OWNED", "YOU", "THIRD", "PRONOUNS", "AGGRESSION", "NOT_RESTRAINT", "PEACE_WORDS", "MEET_VERBS", "AT_PREPOSITIONS", "DIRECT_MEET", "ENTERING", "LEAVING", "OUT_VERBS", "SUPPORT_VERBS", "QUESTION_OPENERS", "OPENERS_BY_FIRST", "RUN_ON_OPENERS",
    "CHECKS", "CHECK_WORDS", "ACCEPT_PHRASES", "ACCEPT_BY_FIRST", "NUMBER_WORDS",
]

NUMBER_WORDS: Mapping[str, int] = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
    "thirty": 30, "forty": 40, "fifty": 50, "hundred": 100, "dozen": 12, "couple": 2, "single": 1,
    "both": 2, "pair": 2, "no": 0, "zero": 0, "none": 0,
}
"""Number words; "no", "zero" and "none (of)" are 0: "you get two food and no firewood" hands no firewood
over (D3)."""

_TABLE: tuple[tuple[str, str, frozenset[str]], ...] = (
    # -- who ---------------------------------------------------------------------------------------------
    ("speaker", "The speaker as a pronoun.", frozenset({"i", "we", "me", "us"})),
    ("owned", 'A subject "my fleet" / "mine" is the speaker\'s own unit (the guide\'s R23b).',
     frozenset({"my", "our", "mine", "ours"})),
    ("addressee", "The addressee as a pronoun.", frozenset({"you"})),
    ("third person", "Someone other than the speaker and the addressee (a third party, or the proposal's "
     '"that" / "this" / "it").',
     frozenset({"he", "she", "they", "him", "her", "them", "it", "someone", "anyone", "nobody", "everyone",
                "everybody", "somebody", "who", "that", "this", "whoever", "anybody", "everything"})),
    # -- cancel: negation, refusal, hedge, plan, deliberation ----------------------------------------
    ("negation", "Words that negate or refuse the act after them (the guide's R5).",
     frozenset({"not", "never", "no", "refuse", "refuses", "decline", "unable", "nothing", "nor", "neither"})),
    ("hedge", 'Words that cancel a commitment (the guide\'s R7: "think", "guess", "suppose" frame an act and do '
     "not).",
     frozenset({"maybe", "might", "perhaps", "possibly", "could", "probably", "unsure", "may", "consider",
                "considering", "thinking", "wonder", "depends", "hopefully",
                # (v16) likelihood and reluctance ("I will very likely be moving to X", "I am hesitant to leave X")
                "likely", "unlikely", "hesitant", "reluctant"})),
    ("plan", "Words between a subject and its act that make the act a plan or a wish, not a promise (the "
     'guide\'s R8: "I want to go", "I was planning to send"; "agreed": a report of an earlier plan).',
     frozenset({"planning", "plan", "plans", "want", "wanted", "hoping", "intend", "wish", "wished", "trying",
                "agreed"})),
    ("planned give", 'Words before a give verb that make the giving a plan or a wish ("I want to give", "I '
     'tried to send").',
     frozenset({"want", "wanted", "planning", "plan", "hoping", "intend", "wish", "wished", "wishing", "trying",
                "try", "tried"})),
    ("deliberation", 'Verbs before "if" / "whether" / "about" that put the act that follows under deliberation, '
     "not promise.",
     frozenset({"see", "check", "think", "decide", "wonder", "know", "ask", "consider", "figure", "thinking",
                "deciding", "checking", "seeing"})),
    ("opinion", 'Verbs of opinion: negated before the subject they negate what follows ("I don\'t think I can").',
     frozenset({"think", "believe", "suppose", "guess", "see", "expect", "feel"})),
    ("wish", 'Verbs before a subject that make its act a wish of the speaker\'s ("I hope you will have enough '
     'water").',
     frozenset({"hope", "hoping", "wish", "pray", "trust"})),
    ("advice", 'Modals after a second "you" that make an "if you need X" clause advice to the addressee.',
     frozenset({"should", "could", "might", "must", "ought", "need", "have", "can"})),
    ("complaint", "Words that make a clause a complaint about terms, not an offer (the guide's R6).",
     frozenset({"rip", "ripoff", "lowball", "unfair", "insulting", "robbery", "scam", "decline", "steep"})),
    # -- offer and ask --------------------------------------------------------------------------------
    ("give verb", "Verbs whose goods the subject hands over (the speaker's give side when the speaker acts).",
     frozenset({"give", "giving", "send", "sending", "pay", "paying", "hand", "handing", "gift", "gifting",
                "transfer", "transferring", "offer", "offering", "provide", "providing", "bring", "bringing",
                "deliver", "delivering", "share", "sharing", "drop", "dropping", "spare", "lend", "throw", "front",
                "fronting", "gives", "sends", "pays", "hands", "offers", "brings", "delivers", "provides",
                "shares", "sacrifice", "sacrificing"})),
    ("offer verb", "Verbs whose items are the speaker's give side but that need a price to be a commitment.",
     frozenset({"sell", "selling", "trade", "trading", "swap", "swapping", "exchange", "exchanging", "barter",
                "bartering"})),
    ("receive verb", "Verbs whose goods the subject gets (the speaker's ask when the speaker acts).",
     frozenset({"want", "need", "buy", "buying", "take", "taking", "get", "getting", "accept", "seek", "seeking",
                "wanting", "needing", "require", "purchase", "keep", "keeping", "like", "love", "prefer", "have",
                "hoping", "hope", "got", "grab", "use", "pick", "picking", "receive", "receiving",
                "appreciate"})),
    ("order verb", "Give verbs that, opening a clause with no subject, order the addressee to hand goods over.",
     frozenset({"give", "send", "pay", "hand", "drop", "bring", "deliver", "transfer", "lend"})),
    ("speaker's gerund", 'Gerunds that, opening a clause with no subject, are the speaker\'s telegraphic act '
     '("sending you 5 food now").',
     frozenset({"sending", "giving", "offering", "paying", "selling", "trading", "swapping", "gifting", "handing",
                "delivering", "bringing", "buying", "seeking", "dropping", "sharing", "providing"})),
    ("noun opener", 'A verb that is also a noun ("offer", "trade") is a noun after these words ("final offer").',
     frozenset({"final", "my", "your", "an", "the", "good", "best", "this", "that", "new", "last", "first", "make",
                "making", "propose", "proposing", "his", "her", "their", "our", "fair", "bad", "great", "nice", "a",
                "no", "any", "what"})),
    ("to frame", 'Words before "to <verb>" that frame the speaker\'s own act ("going to hold", "happy to keep"); '
     'after any other word, "to <verb>" is a purpose ("... only to defend Venice").',
     frozenset({"going", "have", "has", "need", "able", "like", "love", "happy", "willing", "ready", "glad",
                "promise", "plan", "planning", "agree", "decided", "intend", "hoping", "wish", "try", "trying",
                "want", "wanted", "sure", "fine", "ok", "prepared", "about", "got", "used",
                "continue", "start", "begin", "proceed", "expect", "hope", "pleased", "content", "order", "would",
                "i", "we", "me", "us", "and", "then", "moving", "move", "heading", "head", "go", "come", "coming",
                "back", "return", "returning", "pull", "pulling", "prefer", "afford", "enough", "offer", "offered",
                "decide", "choose", "chose", "please", "free", "mind", "be", "am", "is", "are", "will", "can",
                "shall", "should", "must", "might", "could", "may"})),
    ("willing", 'Frames before "to" that make the next verb the speaker\'s act ("happy to spare", R7).',
     frozenset({"happy", "willing", "glad", "able", "ready", "prepared", "pleased", "afford", "going", "fine",
                "ok"})),
    ("further demand", 'Words that make an ask after a consent a further demand ("I also need water": a counter, '
     "R21).",
     frozenset({"also", "still", "additionally"})),
    # -- past and report ------------------------------------------------------------------------------
    ("past", "A claim about the past (or a debt): the items after it are on nobody's side.",
     frozenset({"traded", "gave", "sent", "paid", "sold", "swapped", "exchanged", "offered", "bought", "took",
                "delivered", "brought", "handed", "gifted", "shared", "dropped", "received", "stole", "given",
                "lent", "had", "owe", "owed", "promised", "asked"})),
    ("agreement", 'Verbs of agreeing: with another\'s subject and "to" after them, a report of what the other '
     'agreed ("you did not agree to the 3 waters").',
     frozenset({"agree", "agreed"})),
    ("hypothetical past", 'Past tenses that, after "if I", ask instead of claiming ("would you be okay if I took 2 '
     'of the food?").',
     frozenset({"took", "got", "had"})),
    ("reported", "Words that report what the addressee said or offered, or thank them for it (R8: a report, no "
     "side).",
     frozenset({"said", "told", "mentioned", "suggested", "proposed", "offered", "thank", "thanks"})),
    ("reporting", 'Verbs that report someone else\'s doing: "I saw Bob heading to r_1_1" is not the speaker\'s '
     "move.",
     frozenset({"saw", "see", "seen", "heard", "hear", "said", "says", "told", "tells", "noticed", "watched",
                "spotted", "reported", "claims", "claimed", "thinks", "believes", "rumor"})),
    # -- condition and question -----------------------------------------------------------------------
    ("condition", 'Words that open a condition ("if you help me ..."): the clause\'s offer is conditional.',
     frozenset({"if", "when", "once", "unless", "provided", "whenever"})),
    ("question tag", 'A question whose last comma is followed only by these is a statement with a tag (", ok?").',
     frozenset({"ok", "deal", "yes", "yeah", "agreed", "alright", "fair", "good", "sound", "sounds", "cool", "fine",
                "yea", "please", "friend", "no", "eh", "hm", "then", "huh"})),
    ("interjection", 'Words that may open a sentence without changing what it says ("ok so, ...").',
     frozenset({"ok", "so", "well", "hmm", "hm", "oh", "then", "and", "but", "also", "alright", "yes", "no", "hey",
                "hi", "sure", "yeah", "yep", "ugh", "lol", "haha", "ah", "um", "uh", "great", "cool", ",", ":", "-",
                "right", "fine", "hello", "look", "listen", "now", "yup", "nope", "wait", "dear", "friend",
                "thanks", "thank", "just"})),
    ("asked within", "Words after which a question's opener is part of the sentence, not a new question (\"I "
     'wonder if can you").',
     frozenset({"if", "whether", "know", "wonder", "wondering", "ask", "asking", "asked", "see", "tell", "sure",
                "when", "where", "and", "or", "what", "how", "why", "unless"})),
    # -- acts (rules 12-15) ------------------------------------------------------------------------
    ("aggression", "Verbs and nouns of attack, raid or theft (rule 14: negated by the speaker, a promise of no "
     "attack).",
     frozenset({"attack", "attacking", "attacks", "raid", "raiding", "raids", "steal", "stealing", "rob", "robbing",
                "hit", "hitting", "hurt", "hurting", "harm", "harming", "kill", "killing", "fight", "fighting",
                "ambush", "ambushing", "betray", "backstab", "touch", "hunt", "hunting", "strike", "attacked",
                "theft", "stab", "stabbing", "board", "boarding", "shoot", "shooting", "bounce", "robber",
                # (v16) a player put out of the game ("I'm not going to cripple you", "no point trying to eliminate you")
                "eliminate", "eliminating", "cripple", "crippling", "destroy", "destroying"})),
    ("no restraint", 'Words between a negation and an aggression verb that make it no restraint ("I won\'t hesitate '
     'to attack").',
     frozenset({"hesitate", "stop", "wait", "forget", "fail", "mind", "let", "afraid", "scared", "regret", "quit",
                "able"})),
    ("peace", "Words that name a truce or a peace (rule 14).",
     frozenset({"truce", "ceasefire", "nonaggression", "non_aggression", "armistice", "peace", "peaceful",
                "neutrality"})),
    ("meet verb", "Verbs that put the speaker at the place a preposition after them names.",
     frozenset({"meet", "meeting", "rendezvous", "regroup", "regrouping", "be", "stay", "staying", "wait", "waiting",
                "move", "moving", "head", "heading", "go", "going", "come", "coming", "travel", "traveling",
                "travelling", "walk", "walking", "run", "running", "return", "returning", "arrive", "arriving",
                "camp", "camping", "way", "hang", "sail", "sailing", "fly", "flying", "jump", "jumping", "enter",
                "entering", "station", "stationed", "set", "keep", "flank", "flanking", "see", "find", "dock",
                "docking", "pull", "pulling", "fall", "falling", "retreat", "retreating", "push", "pushing", "rush",
                "rushing", "march", "marching", "hold", "holding", "sit", "sitting", "park", "parking", "rotate",
                "rotating", "redeploy", "deploy", "deploying", "post", "posted", "stays", "remains", "remain",
                "keeping", "order", "ordering", "lead", "leading", "bring", "bringing", "send", "sending",
                # (v16) a unit put somewhere ("I won't put an army in StP"; a unit named, as for "keep")
                "put", "putting"})),
    ("at preposition", 'Prepositions after a motion verb that name where the speaker will be ("I\'ll be at X", rule '
     "12).",
     frozenset({"at", "in", "to", "into", "on", "toward", "towards", "near", "by", "through", "inside", "onto",
                "over", "up"})),
    ("holding verb", 'Verbs whose object is the place the speaker will be at ("I\'ll hold the bridge").',
     frozenset({"hold", "holding", "guard", "guarding", "defend", "defending", "watch", "watching", "cover",
                "covering", "take", "taking", "occupy", "occupying", "secure", "securing", "going", "heading",
                "camp", "camping", "man", "manning", "enter", "entering", "push", "pushing", "rush", "rushing",
                "reach", "visit",
                # (v16) a place being got is taken ("I'm getting Belgium"; "I get X" in a split stays a split's term)
                "getting"})),
    ("entering verb", 'Verbs that, negated, promise to keep out of the place ("I won\'t enter Pell").',
     frozenset({"go", "going", "move", "moving", "enter", "entering", "enters", "come", "coming", "set", "sail",
                "sailing", "head", "heading", "push", "pushing", "attack", "attacking", "bounce", "touch", "take",
                "taking", "step", "walk", "walking", "fly", "flying", "march", "jump", "be", "rush", "send",
                "sending", "cross", "crossing", "raid", "hit", "strike", "invade", "invading", "stab", "put", "putting",
                # (v16) the rest of a strike's forms ("I won't cut Kiel", "not hitting Gal")
                "raiding", "hitting", "striking", "cut", "cutting", "tap", "tapping"})),
    ("leaving verb", 'Verbs whose object is a place the speaker will not be in ("I\'ll leave Varn").',
     frozenset({"leave", "leaving", "abandon", "abandoning", "avoid", "avoiding", "vacate", "vacating", "evacuate",
                "cede", "ceding", "concede"})),
    ("out verb", 'Verbs of a "stay out of" / "keep away from" / "withdraw from" phrase.',
     frozenset({"stay", "staying", "keep", "keeping", "pull", "pulling", "move", "moving", "get", "getting",
                "withdraw", "withdrawing", "go", "going", "clear", "route", "routing", "back", "backing", "step",
                "stepping", "remain", "remaining", "retreat", "retreating"})),
    ("support verb", "Verbs of support or help (rule 15: with a person as object, the speaker's support).",
     frozenset({"support", "supporting", "back", "backing", "help", "helping", "convoy", "convoying", "cover",
                "covering", "escort", "escorting", "heal", "healing", "protect", "protecting", "defend", "defending",
                "guard", "guarding", "assist", "assisting", "aid", "aiding", "reinforce", "reinforcing"})),
    # -- consent (rule 16) ----------------------------------------------------------------------------
    ("consent", 'Words of consent after "that is" (R20: "that\'s fair", "that\'s fine with me", "that is okay").',
     frozenset({"fine", "fair", "ok", "acceptable", "agreeable", "reasonable", "doable", "workable",
                "alright", "suitable"})),
    ("consent verb", 'Verbs that consent when their object is the proposal (R20: "I agree", "I\'ll take it", "I '
     'can do that").',
     frozenset({"agree", "accept", "take", "do", "go", "work", "live", "settle", "finalize", "confirm",
                "accommodate", "accomodate", "spare", "submit"})),
    ("contentment", 'Words of contentment that consent with "with that" ("I\'m ok with that", R20).',
     frozenset({"ok", "fine", "good", "happy", "satisfied", "content", "cool", "down", "agreeable", "alright",
                "comfortable"})),
    ("content with goods", 'Words of the speaker\'s consent that, before "with" and goods, ask for those goods '
     '("I\'m fine with 2 water").',
     frozenset({"fine", "ok", "good", "happy", "content", "satisfied", "alright", "settle"})),
    ("committing", "Words between the speaker and a verb of consent that keep it a commitment (R7: *would*, "
     "*can*, *willing*, *happy* are no hedges).",
     frozenset({"will", "would", "can", "shall", "do", "also", "definitely", "certainly", "happily", "gladly",
                "totally", "absolutely", "then", "just", "am", "are", "happy", "willing", "glad", "to",
                "be", "going", "ok", "fine", "sure", "now", "fully", "completely", "ready"})),
    ("hoped", 'Words before "come to an agreement" that make it a deal still to come, not consent (R20).',
     frozenset({"can", "will", "should", "sure", "hope", "hoping", "try", "going"})),
    ("wished", 'Words just before "we have a deal" / "we can make a deal" that make it a wish, not consent (R20).',
     frozenset({"hope", "hoping", "wish", "sure", "try", "trying"})),
    ("deal", 'What two parties can be said to have made or reached (R20: "we have reached a compromise").',
     frozenset({"deal", "compromise", "agreement", "arrangement"})),
    ("deal negator", 'Words before "deal" that make it a noun someone talks about, not a consent.',
     frozenset({"no", "not", "bad", "terrible", "unfair", "raw", "any", "what", "never", "worst", "off", "new",
                "better", "another", "different", "real", "our", "that", "the", "your", "this", "a", "good", "fair",
                "great", "my", "his", "her", "their", "from", "away"})),
    ("proposal", 'What a proposal is called ("your offer", "that deal", "this split").',
     frozenset({"deal", "offer", "trade", "proposal", "split", "compromise", "terms", "arrangement", "plan", "one",
                "counter", "counteroffer", "idea", "suggestion", "distribution", "solution"})),
    ("named proposal", 'The proposal named after "accept / take your": consent, no goods taken ("I\'m willing to '
     'accept your offer on food").',
     frozenset({"offer", "deal", "proposal", "suggestion", "terms"})),
    ("suits", 'Words before "for you" / "for me" that say whom terms suit ("if that works for you"), not whose '
     "goods.",
     frozenset({"works", "work", "good", "fine", "ok", "better", "fair", "easier", "best", "enough",
                "important", "alright", "great", "perfect"})),
)

FRAME_WORDS: Mapping[str, frozenset[str]] = {role: normal_words(words) for role, _, words in _TABLE}
"""Every role and its words, in the tokenizer's normal form."""
ROLE_NOTES: Mapping[str, str] = {role: note for role, note, _ in _TABLE}
"""What each role does to a clause."""

_ROLES_OF: dict[str, frozenset[str]] = {}
for _role, _words in FRAME_WORDS.items():
    for _word in _words:
        _ROLES_OF[_word] = _ROLES_OF.get(_word, frozenset()) | {_role}


def roles_of(word: str) -> frozenset[str]:
    """The roles of ``word`` in :data:`FRAME_WORDS` (empty for a word that frames nothing)."""
    return _ROLES_OF.get(word, frozenset())


SPEAKER = FRAME_WORDS["speaker"]
OWNED = FRAME_WORDS["owned"]
YOU = FRAME_WORDS["addressee"]
THIRD = FRAME_WORDS["third person"]
PRONOUNS = SPEAKER | YOU | THIRD
"""Every pronoun the subject look-ups read."""
NEGATIONS = FRAME_WORDS["negation"]
HEDGES = FRAME_WORDS["hedge"]
PLANS = FRAME_WORDS["plan"]
PLANNED_GIVE = FRAME_WORDS["planned give"]
DELIBERATE = FRAME_WORDS["deliberation"]
OPINIONS = FRAME_WORDS["opinion"]
WISHES = FRAME_WORDS["wish"]
ADVICE = FRAME_WORDS["advice"]
COMPLAINTS = FRAME_WORDS["complaint"]
GIVE_VERBS = FRAME_WORDS["give verb"]
OFFER_VERBS = FRAME_WORDS["offer verb"]
RECEIVE_VERBS = FRAME_WORDS["receive verb"]
ORDER_VERBS = FRAME_WORDS["order verb"]
SPEAKER_GERUNDS = FRAME_WORDS["speaker's gerund"]
WILLING = FRAME_WORDS["willing"]
TO_FRAMES = FRAME_WORDS["to frame"]
FURTHER = FRAME_WORDS["further demand"]
PAST_VERBS = FRAME_WORDS["past"]
AGREEMENT = FRAME_WORDS["agreement"]
HYPOTHETICAL_PAST = FRAME_WORDS["hypothetical past"]
NOUN_OPENERS = FRAME_WORDS["noun opener"]
NAMED_PROPOSALS = FRAME_WORDS["named proposal"]
REPORTED = FRAME_WORDS["reported"]
REPORTING = FRAME_WORDS["reporting"]
CONDITIONS = FRAME_WORDS["condition"]
TAGS = FRAME_WORDS["question tag"]
INTERJECTIONS = FRAME_WORDS["interjection"]
ASKED_WITHIN = FRAME_WORDS["asked within"]
CONSENT_WORDS = FRAME_WORDS["consent"]
CONSENT_VERBS = FRAME_WORDS["consent verb"]
CONTENT_WORDS = FRAME_WORDS["contentment"]
CONTENT = FRAME_WORDS["content with goods"]
COMMITTING = FRAME_WORDS["committing"]
HOPED = FRAME_WORDS["hoped"]
WISHED = FRAME_WORDS["wished"]
DEAL_NOUNS = FRAME_WORDS["deal"]
DEAL_NEGATORS = FRAME_WORDS["deal negator"]
PROPOSAL_NOUNS = FRAME_WORDS["proposal"]
SUITS = FRAME_WORDS["suits"]
AGGRESSION = FRAME_WORDS["aggression"]
NOT_RESTRAINT = FRAME_WORDS["no restraint"]
PEACE_WORDS = FRAME_WORDS["peace"]
MEET_VERBS = FRAME_WORDS["meet verb"]
AT_PREPOSITIONS = FRAME_WORDS["at preposition"]
DIRECT_MEET = FRAME_WORDS["holding verb"]
ENTERING = FRAME_WORDS["entering verb"]
LEAVING = FRAME_WORDS["leaving verb"]
OUT_VERBS = FRAME_WORDS["out verb"]
SUPPORT_VERBS = FRAME_WORDS["support verb"]

# -- phrases -------------------------------------------------------------------------------------------

_PHRASE_TABLE: Mapping[str, tuple[tuple[str, ...], ...]] = {
    "give verb phrase": (("part", "with"), ("leave", "you"), ("leaving", "you")),
    "question opener": (
        ("how", "about"), ("what", "about"), ("what", "if"), ("would", "you"), ("could", "you"), ("can", "you"),
        ("can", "i"), ("could", "i"), ("may", "i"), ("shall", "we"), ("shall", "i"), ("will", "you"),
        ("would", "not", "you"), ("do", "you"), ("does", "that"), ("does", "it"), ("are", "you"), ("is", "it"),
        ("is", "that"), ("should", "i"), ("should", "we"), ("why",), ("who",), ("which",), ("any", "way"),
        ("did", "you"), ("can", "we"), ("could", "we"), ("would", "it"), ("want", "to"), ("how",),
        ("what", "would", "you"), ("what", "will", "you"), ("any", "chance"),
        ("is", "there"), ("do", "we"), ("have", "you"), ("suppose",), ("supposing",), ("let", "us", "say"),
    ),
    "run-on question": (
        ("how", "many"), ("how", "much"), ("can", "i"), ("can", "you"), ("could", "you"), ("would", "you"),
        ("will", "you"), ("do", "you"), ("are", "you"), ("what", "do"),
    ),
    "check": (
        ("am", "i", "correct"), ("am", "i", "right"), ("is", "that", "right"), ("is", "that", "correct"),
        ("did", "i", "get", "that", "right"), ("just", "to", "be", "clear"), ("am", "i", "understanding"),
        ("just", "to", "confirm"), ("to", "confirm", "-"), ("just", "to", "clarify"), ("to", "clarify", ","),
        ("just", "so", "we", "are", "clear"), ("let", "me", "make", "sure"), ("just", "to", "make", "sure"),
        ("to", "double", "check"), ("just", "to", "be", "sure"), ("let", "us", "make", "sure"), ("if", "i", "understand", "correctly"),
        ("if", "i", "am", "understanding", "correctly"), ("let", "me", "get", "this", "straight"),
    ),
    "consent phrase": tuple(tuple(p.split()) for p in (
        "it is a deal", "you have a deal", "you have got a deal", "you got a deal", "we have a deal",
        "that is a deal", "like a deal", "submitting deal", "submitting the deal", "submit the deal",
        "enter in the deal", "enter the deal", "agreed", "i agree", "we agree", "i accept", "we accept", "accepted",
        "that is fair", "sounds fair", "sounds pretty fair", "sounds very fair", "seems fair",
        "that works", "works for me", "works for us", "fine by me", "that is fine", "fine with me",
        "sounds like a plan", "let us do it", "let us do this", "let us do that", "you are on", "i am in",
        "count me in", "i am on board", "we are on board", "take you up on that", "take you up on your",
        "take you up on the", "take your offer", "accept your offer", "take the offer",
        "accept the offer", "take that offer", "take the deal", "take that deal", "i can make that work",
        "sounds reasonable", "that is reasonable", "it is a plan", "came to an agreement",
        "come to an agreement", "reached an agreement", "we have an agreement", "make a deal with that",
        "came to a deal", "come to a deal", "came to a conclusion", "come to a conclusion",
        # (v15) every noun of a deal made read alike ("glad we could come to a compromise", as "... an agreement")
        "came to a compromise", "come to a compromise", "came to an arrangement", "come to an arrangement",
        "reached a deal", "reached a compromise", "reached an arrangement",
        "works for me", "that will work", "that would work", "that can work", "happy to oblige",
        "that is a fair deal", "like a fair deal", "like a good deal",
        "sounds like a fair trade", "that is a fair trade",
        "that is ok", "that should be ok", "that should be fine",
        "that should work", "like a fair compromise", "that is a fair compromise",
        "this works", "i am in agreement", "we are in agreement", "that suits me", "this suits me", "suits me fine",
        "that suits us", "suits us fine", "it is settled", "that is settled", "that settles it",
        "like an alright trade", "like an alright deal", "like a good trade", "like a great deal",
        "like a great trade", "like a reasonable deal", "like a reasonable trade", "like an ok deal",
        "like it works", "like it will work", "like it would work", "we are all set",
        # (v8) closing the deal on the table: the speaker's act of putting it through
        "set the deal", "set up the deal", "push it through", "push the deal through", "lock it in",
        "lock in the deal", "lock the deal in",
        # (v10) the article dropped, as chat drops it ("ok sounds like deal then")
        "sounds like deal", "seems like deal", "looks like deal",
    )),
}
FRAME_PHRASES: Mapping[str, tuple[tuple[str, ...], ...]] = {
    role: tuple(dict.fromkeys(normal_phrase(p) for p in phrases)) for role, phrases in _PHRASE_TABLE.items()
}
"""Roles said by a phrase: a clause opened by a *question opener* asks, with or without its "?" (the
guide's R3; so does a hypothetical opened by "suppose" or "let's say"); a *give verb phrase* is a give verb said
in two words ("I'm willing to part with 2 of my firewood", (v15) "I will leave you all the firewood"); a *run-on
question* may open a question after a statement without a comma (R3); a restatement followed by a *check* asks whether the speaker understood (R3: no commitment); a *consent
phrase* consents to a proposal (the guide's R20 and D1; the structural frames of rule 16 read the
rest, :mod:`._consent`)."""

QUESTION_OPENERS = FRAME_PHRASES["question opener"]
OPENERS_BY_FIRST: Mapping[str, tuple[tuple[str, ...], ...]] = {
    first: tuple(p for p in QUESTION_OPENERS if p[0] == first) for first in dict.fromkeys(p[0] for p in QUESTION_OPENERS)
}
"""The question openers by their first word, in table order."""
RUN_ON_OPENERS = frozenset(FRAME_PHRASES["run-on question"])
CHECKS = FRAME_PHRASES["check"]
CHECK_WORDS = frozenset(p[-1] for p in CHECKS)
"""The last words of the checks (a message without one holds none)."""
ACCEPT_PHRASES = FRAME_PHRASES["consent phrase"]
ACCEPT_BY_FIRST: Mapping[str, tuple[tuple[str, ...], ...]] = {
    first: tuple(p for p in ACCEPT_PHRASES if p[0] == first) for first in dict.fromkeys(p[0] for p in ACCEPT_PHRASES)
}
"""The consent phrases by their first word, in table order."""


def has_phrase(words: list[str], phrase: tuple[str, ...]) -> bool:
    """``phrase`` stands in ``words``.

    >>> has_phrase(["a", "b", "a", "c"], ("a", "c"))
    True
    """
    first = phrase[0]
    if first not in words:
        return False
    k = len(phrase)
    i = words.index(first)
    while tuple(words[i:i + k]) != phrase:
        try:
            i = words.index(first, i + 1)
        except ValueError:
            return False
    return True


_VERB_ROLES = ("give verb", "offer verb", "receive verb")
_GIVE_PHRASES: Mapping[str, tuple[tuple[str, ...], ...]] = {
    first: tuple(p for p in FRAME_PHRASES["give verb phrase"] if p[0] == first)
    for first in dict.fromkeys(p[0] for p in FRAME_PHRASES["give verb phrase"])
}
_VERB_ROLE_OF: Mapping[str, str] = {w: role for role in reversed(_VERB_ROLES) for w in FRAME_WORDS[role]}
VERB_CUE_WORDS = GIVE_VERBS | OFFER_VERBS | RECEIVE_VERBS | frozenset(_GIVE_PHRASES)
"""The words at which a verb of goods may stand (its first word when it is a phrase)."""


def verb_role(words: list[str], i: int) -> str | None:
    """The role of the verb of goods at ``i``: "give verb" (also a *give verb phrase*: "part with", (v15) "leave
    you"), "offer verb", "receive verb", or None.  (No word holds two of these roles.)

    >>> verb_role("i can part with 2 wood".split(), 2)
    'give verb'
    >>> verb_role("i need wood".split(), 1) is None, verb_role("i need wood".split(), 2) is None
    (False, True)
    """
    w = words[i]
    if w in _GIVE_PHRASES and any(tuple(words[i:i + len(p)]) == p for p in _GIVE_PHRASES[w]):
        return "give verb"
    return _VERB_ROLE_OF.get(w)


# -- cancel: is the act at a verb the speaker's promise? ---------------------------------------------------

def _licensed(words: list[str], verb: int, k: int) -> bool:
    """A negation or hedge word at ``k`` that licenses the act instead: "I don't mind giving you the food",
    "you may have the firewood" (permission, an offer: R7's hedge "may" is the speaker's)."""
    w = words[k]
    if w == "not":
        return k + 1 < len(words) and words[k + 1] == "mind"
    return w == "may" and k > 0 and words[k - 1] == "you" and words[verb] in ("have", "take", "keep", "get")


def _negated_or_hedged(words: list[str], k: int) -> bool:
    """A negation or a hedge between the subject and the verb (R5, R7)."""
    return words[k] in NEGATIONS or words[k] in HEDGES


def _deliberated(words: list[str], k: int) -> bool:
    """"let me see if I can give you the firewood": the speaker deliberates (R7)."""
    return words[k] in ("if", "whether", "about") and k > 0 and words[k - 1] in DELIBERATE


def _past_plan(words: list[str], k: int) -> bool:
    """"you were going to get the water": a past plan (R8); "I was hoping for" asks."""
    return words[k] in ("was", "were") and words[k + 1:k + 3] == ["going", "to"]


_MAY_LICENSE = frozenset({"not", "may"})
"""The words :func:`_licensed` can read (the others are passed to the next rules at once)."""
_MAY_CANCEL = NEGATIONS | HEDGES | frozenset({"if", "whether", "about", "was", "were"})
"""The words :func:`_negated_or_hedged`, :func:`_deliberated` or :func:`_past_plan` can read."""


def _hedged_subject(words: list[str], k: int) -> bool:
    """"maybe I'll give": a hedge just before the subject."""
    return any(words[j] in HEDGES for j in range(max(k - 2, 0), k))


def _negated_opinion(words: list[str], k: int) -> bool:
    """"I don't think I can give you the water": a negated opinion before the subject negates the act (R5)."""
    return any(words[j] in OPINIONS and j > 0 and words[j - 1] in ("not", "never") for j in range(max(k - 3, 0), k))


def _not_sure(words: list[str], k: int) -> bool:
    """"I'm not sure I can let you have the food": "not sure" is a hedge (R7)."""
    return any(words[j] == "sure" and words[j - 1] == "not" for j in range(max(k - 6, 1), k))


def _deliberated_subject(words: list[str], k: int) -> bool:
    """"let me see if I can ...": the subject's act is deliberated (R7)."""
    return k > 1 and words[k - 1] in ("if", "whether") and words[k - 2] in DELIBERATE


def _wished_subject(words: list[str], k: int) -> bool:
    """"I hope you will have X": a wish (R8)."""
    return k > 0 and words[k - 1] in WISHES


def _refused_subject(words: list[str], k: int) -> bool:
    """"there's no way I can give you X": a refusal (R5)."""
    return k > 1 and words[k - 2:k] in (["no", "way"], ["no", "chance"])


def cancelled(words: list[str], verb: int) -> bool:
    """A negation or hedge between the verb's subject (or the clause start, six words back at most) and the
    verb.  Walking back from the verb: a word :func:`_licensed` is passed; a word that
    :func:`_negated_or_hedged`, :func:`_deliberated` or :func:`_past_plan` reads cancels; the first
    pronoun is the subject, and then the words before it decide (:func:`_hedged_subject`,
    :func:`_negated_opinion`, :func:`_not_sure`, :func:`_deliberated_subject`, :func:`_wished_subject`,
    :func:`_refused_subject`); a comma ends the look.  (The rules are called one by one, not looped
    over: this runs at every verb of every text.)

    >>> cancelled("maybe i will give you 2 food".split(), 3)
    True
    >>> cancelled("i will give you 2 food".split(), 2)
    False
    """
    for k in range(verb - 1, max(verb - 7, -1), -1):
        w = words[k]
        if w in _MAY_LICENSE and _licensed(words, verb, k):
            continue
        if w in _MAY_CANCEL and (_negated_or_hedged(words, k) or _deliberated(words, k) or _past_plan(words, k)):
            return True
        if w in PRONOUNS:
            return _hedged_subject(words, k) or _negated_opinion(words, k) or _not_sure(words, k) or \
                _deliberated_subject(words, k) or _wished_subject(words, k) or _refused_subject(words, k)
        if w == ",":
            return False
    return False
