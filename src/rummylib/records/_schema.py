"""Schema, version 1
=================

Every document is a JSON object with two header fields, then the fields of
its kind::

    {"schema": 1, "kind": "ruleset", "name": "remik", "decks": 2, ...}

``schema`` (integer)
    The schema version. This release writes ``1`` and reads ``1``. A later
    release keeps reading every version earlier releases wrote.
``kind`` (string)
    What the document holds: ``"ruleset"``, ``"meld"``, ``"action"``,
    ``"cards"``, ``"state"``, ``"view"`` or ``"record"``.

Values nested inside a document (a ruleset inside a state, a meld inside an
action) are the same objects without the two header fields. Every field
listed is required; a field not listed is refused (``UNKNOWN_FIELD``).

Reading is strict and never trusts the document: any error raises
:class:`~rummylib.InvalidStateError` with a :class:`~rummylib.StateReason`
and the path of the offending value, such as ``round.hands[2][5]``. Before
anything is read, the document is checked against fixed limits: nesting at
most 32 levels, at most 1,000,000 values, strings at most 4096 characters,
integers within 64 bits, no NaN or infinity, JSON text at most 16 MiB
(reasons ``TOO_DEEP``, ``TOO_LARGE``). Only plain JSON values are accepted:
``dict`` with string keys, ``list``, ``str``, ``int``, ``float``, ``bool``,
``None``, as :func:`json.loads` builds them.

Cards
-----
A card is a string in canonical notation: ``"7H"``, ``"10H"``, ``"QS"``,
``"AD"``, ``"JK"`` (the joker). Other spellings (``"TH"``, ``"7h"``,
``"7♥"``) are refused in documents (``BAD_CARD``); the action notation
accepts them.

``kind: "cards"`` (a :class:`~rummylib.CardMultiset`)
    ``cards``: array of cards. Written in canonical order (S, H, D, C, each
    ace to king, then jokers); read in any order.

Ruleset
-------
``kind: "ruleset"`` (a :class:`~rummylib.Ruleset`): one field per field of
:class:`~rummylib.Ruleset`, same name, same meaning (see its documentation
for the rule each parameterises). The ruleset is rebuilt through
:class:`~rummylib.Ruleset` itself, so every check it makes applies
(``BAD_RULESET``, with the path of the field it names).

========================== ============================ ======================================
field                      JSON type                    example (remik)
========================== ============================ ======================================
``name``                   string                       ``"remik"``
``decks``                  integer                      ``2``
``jokers``                 integer                      ``4``
``ace_high``               boolean                      ``true``
``group3_max_jokers``      integer                      ``1``
``group4_max_jokers``      integer                      ``2``
``adjacent_jokers``        boolean                      ``false``
``joker_swap``             boolean                      ``true``
``opening_required``       boolean                      ``true``
``opening_points``         integer                      ``51``
``opening_clean_run``      boolean                      ``true``
``lay_off_before_opening`` boolean                      ``false``
``melds_per_turn``         integer or null              ``null`` (any number)
``discard_rule``           ``"free"``, ``"new_meld"``   ``"new_meld"``
``discard_taken_card``     boolean                      ``false``
``take_discard_to_open``   boolean (optional: documents ``false``
                           written before it read as
                           ``false``)
``must_discard_to_go_out`` boolean                      ``true``
``restock_rule``           ``"reshuffle_keep_top"``,    ``"reshuffle_keep_top"``
                           ``"turn_over"``
``restock_limit``          integer or null              ``null`` (no cap)
``min_players``            integer                      ``2``
``max_players``            integer                      ``6``
``hand_sizes``             object: player count (a      ``{"2": 13, "3": 13, ..., "6": 13}``
                           decimal string) -> integer
``dealer_extra_card``      boolean                      ``true``
``upcard``                 boolean                      ``false``
``dealer_plays_first``     boolean                      ``true``
``ace_penalty``            integer                      ``11``
``joker_penalty``          integer                      ``30``
``scoring``                ``"penalty"``,               ``"penalty"``
                           ``"winner_collects"``
``rummy_multiplier``       integer                      ``2``
``score_limit``            integer or null              ``500``
``max_rounds``             integer or null              ``null``
``tie_rule``               ``"share"``, ``"play_on"``   ``"share"``
========================== ============================ ======================================

Meld
----
``kind: "meld"`` (a :class:`~rummylib.Run` or :class:`~rummylib.Group`):

``type``
    ``"run"`` or ``"group"``.
``slots``
    Array of 3 to 13 slot strings in table order: a run lowest first, a group
    in suit order S, H, D, C. A slot is a card (``"5H"``) or a joker with the
    card it stands for (``"JK=7H"``); every joker is declared (R-J1, M6). The
    run's suit and first position, the group's rank and suits follow from the
    slots. A run's ace is low when it comes first and high when it comes
    last (``"QH", "KH", "AH"``).

Inside a state a meld is also checked against the state's ruleset (jokers
allowed and their limits, R-J2, J3; the high ace, R-M4); a standalone meld
document only for its layout.

Action
------
``kind: "action"`` (any :data:`~rummylib.Action`): a ``type`` and its fields.

The ``type`` is the action's name in the notation (its first word, see
:func:`~rummylib.records.format_action`). Documents of earlier development versions
spell them ``"draw_stock"``, ``"take_discard"``, ``"lay_meld"``, ``"lay_off"``,
``"swap_joker"`` and ``"next_round"``; those are still read.

================== =========================================================================
``type``           fields
================== =========================================================================
``"draw"``         none
``"take"``         none
``"open"``         ``melds``: array of 1 to 80 melds (objects as above)
``"meld"``         ``meld``: a meld
``"layoff"``       ``target``: integer 0..1000, the meld's index in the table's order of
                   laying; ``card``: a card (``"JK"`` for a joker, which stands for the card
                   at that end or the group's missing suit); ``end``: ``"low"``, ``"high"``
                   or ``null``
``"swap"``         ``target``: integer meld index; ``card``: the real card put in the place
                   of the joker standing for it
``"discard"``      ``card``: a card
``"next"``         none
================== =========================================================================

Game state
----------
``kind: "state"`` (a :class:`~rummylib.GameState`): the whole game, hidden
information included. Keep it on the server; send clients views.

``rules``
    The ruleset (object as above).
``players``
    Array of the seats' names (strings), seat 0 first; as many as the ruleset
    seats (``min_players`` to ``max_players``).
``seed``
    The seed of every shuffle: ``{"type": "int", "value": "<decimal digits>"}``
    (a string, since seeds run to 128 bits and more; up to 256 digits, a
    leading ``-`` allowed) or ``{"type": "str", "value": "<text>"}``.
``dealer``
    The current round's dealer, a seat number.
``round_number``
    The current round, from 1: the number of finished rounds plus one while
    a round is in play, equal to it once the round is over.
``totals``
    Array of running totals, one per seat, integers from 0; each at least
    the sum of that seat's scores in ``results`` (a game may start from
    given totals). The game is over exactly when the totals and rounds say
    so (R-S2, S4).
``results``
    Array of finished rounds, oldest first, each an object: ``winner`` (seat
    or ``null`` for a void round, R-D7), ``penalties`` (array, each seat's
    hand value at the end, 0 for the winner), ``scores`` (array, what each
    seat added to its total; must follow from the penalties, the scoring
    and ``rummy``), ``rummy`` (boolean, a one-turn go-out, R-E2, E4).
``round``
    The current round, an object:

    ``hands``
        Array of hands, one per seat, each an array of cards (written in
        canonical order, read in any order).
    ``stock``
        Array of cards, the top first (``stock[0]`` is drawn next).
    ``discard``
        Array of cards, the bottom first (the last is the top, R-D1).
    ``table``
        Array of table melds in the order they were laid (the ``target``
        of lay-offs and swaps): objects ``{"meld": <meld>, "owner": <seat or
        null>}``. Each meld must be valid under the ruleset; its owner must
        have opened.
    ``opened``
        Array of booleans, who has opened (all true without an opening rule).
    ``has_laid``
        Array of booleans, who laid cards in an earlier turn of this round
        (R-E2, E4); only a player who has opened.
    ``to_act``
        The seat whose turn it is (after a round ends, the seat that acted last).
    ``phase``
        ``"draw"``, ``"play"``, ``"round_over"`` or ``"game_over"``.
    ``turn``
        This turn so far: ``drawn`` (card or ``null``: the card drawn or
        taken; ``null`` only before the draw or on the dealer's first turn,
        R-T1), ``taken`` (card or ``null``: the taken discard still in hand,
        which may not be discarded, R-T7), ``must_meld`` (card or ``null``:
        the taken discard not yet in a new meld, R-D2), ``must_go_out``
        (boolean, R-D2), ``freed_jokers`` (integer, jokers freed by swaps and
        not yet in a new meld, R-J4), ``melds_laid`` (integer, R-T5; they
        are the table's last melds), ``laid`` (boolean), ``opening_points``
        (integer) and ``opening_clean`` (boolean): the opening in progress
        of a seat that has not opened (R-O4), which must match the turn's new
        melds (optional: documents written before them read ``0``/``false``).
        In the draw phase the turn is all ``null``, ``false`` and ``0``.
    ``restocks``
        How often the stock was refilled this round (R-D4, D6), at most the
        ruleset's ``restock_limit``.

Reading a state checks, beyond each field: every card of the deck exactly
once across hands, stock, pile and table (R-C3; ``CARDS_NOT_CONSERVED``,
with the path of the first card too many, or the cards missing); no empty
hand while a round is in play and no hand larger than the deal allows
(one more for the player who has drawn); the turn consistent with the
phase, the hand and the rules; the last result consistent with the hands
left when a round is over (``INCONSISTENT``). A state that loads is one
the engine can play on.

Player view
-----------
``kind: "view"`` (a :class:`~rummylib.PlayerView`): what one seat may know
(R-H1). It holds no other hand, no stock order and no seed.

``seat``
    Whose view this is.
``rules``
    A preset is named by reference, ``{"name": "remik", "fingerprint":
    "..."}`` (16 hex digits, :func:`~rummylib.records.ruleset_fingerprint`),
    so a view does not repeat every rule; any other ruleset (or any ruleset,
    with ``to_json(view, full_rules=True)``) is written in full, as in a state.
    A reader resolves a reference among the presets and the ``rulesets=`` it
    is given; an unknown name or a fingerprint that differs raises
    :class:`~rummylib.RulesetMismatchError` (``UNKNOWN_RULESET``,
    ``RULESET_MISMATCH``).
``players``, ``dealer``, ``round_number``, ``totals``, ``results``
    As in a state.
``standings``
    ``{"rounds": <finished rounds>, "is_over": <boolean>, "winners": [<seats>]}``,
    which must follow from the totals (``winners`` is empty until the game is over).
``hand``
    Array of this seat's cards.
``hand_sizes``
    Array of how many cards each seat holds.
``stock_size``
    How many cards the stock holds.
``discard``, ``table``, ``opened``, ``to_act``, ``phase``, ``restocks``
    As in a state's ``round``.
``turn``
    As in a state's ``round``, when this seat is to act in the draw or play
    phase; ``null`` otherwise.
``opening_points``, ``opening_clean``
    The opening in progress of the seat to act (R-O4; public, as its melds
    are on the table), as in a state's ``turn``; optional, ``0``/``false``
    when absent.

Reading a view checks that the cards it shows fit in the deck and that
they, the hand sizes and the stock size add up to the deck (R-C3), and the
same consistency of phase, turn, hand sizes and results as for a state.

Game record
-----------
``kind: "record"`` (a :class:`~rummylib.records.GameRecord`): ``rules``,
``players``, ``seed``, ``dealer`` as in a state (``dealer`` is the first
dealer), and ``actions``: an array of actions in the text notation of
:func:`~rummylib.records.format_action` (``"draw"``, ``"discard KS"``,
``"open 9S 10S JS | 8H 8D JK=8C"``), read with the record's ruleset.
Loading checks each action's form; :func:`~rummylib.records.replay` checks
that each is legal. Two optional fields, written only when not empty:
``headers``, an object with any of ``event``, ``site``, ``date``, ``round``,
``result`` (strings) and ``tags`` (an object of free tags, name -> string;
see :class:`~rummylib.records.RecordHeaders`), and ``comments``, an array of
``{"action": <index>, "text": <string>}``, at most one per action.
"""

# This module is only the schema's documentation: rummylib.records shows it with the package.
