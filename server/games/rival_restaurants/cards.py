"""Rival Restaurants components, as data.

What is public about the base game (FACTS.md) is followed to the letter: the Island in the
centre and six ingredient markets, four of them on the corners; Chop Shop and Dairy King
sell at $200, carbs, fruit and vegetables at $100; the Mystery Mart sells Chocolate,
Secret Sauce, Tofu, Wine and Alien Goo; restaurants level up at 3, 7 and 12 popularity
(the expansion calls the three levels Rising Dough, Hot Sauce and Big Cheese); 12 chefs,
8 restaurants (The Rising Sun is Japanese; Luchador Picante is one), 36 action cards;
Biff Brobeque may use meat for any vegetable and is paid for recipes with 2+ meats.
Everything else here — names, counts, recipes, powers, rewards, prices — is *designed*
(see ``docs/rules/rival-restaurants.md``) and can be replaced as data.

Powers, level-ups, upgrades, specials and action cards are all lists of ``Effect``: a
rule that fires at a named *moment* of the day (see ``effects.MOMENTS``). A played card or
an active chef power also has a ``Play``: when and on whom it may be used.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# ---- effects (the one hook mechanism; the functions live in effects.py) -----------------


@dataclass(frozen=True, eq=False)
class Effect:
    """A rule that fires at ``moment``; ``kind`` names the function in ``effects.EFFECTS``.

    ``on`` says whom a played effect lasts on for the day ("self" or "target");
    ``location_based`` effects do not work at the Mystery Mart."""

    moment: str
    kind: str
    params: dict[str, Any] = field(default_factory=dict)
    on: str = "self"
    location_based: bool = False


@dataclass(frozen=True)
class Play:
    """How an action card or an active chef power is used: the phase it belongs to, whom
    it targets (None, "chef": any other chef, "chef_here": another chef at your location)
    and what else the player chooses ("ingredient" of the target, "slot": a counter card
    anywhere, "kind": basic or gourmet, None)."""

    phase: str
    target: str | None = None
    choice: str | None = None
    stoppable: bool = True  # Clam-Voyance can stop it; a SPORK never is

    @property
    def params(self) -> tuple[str, ...]:
        """The parameters the ``play``/``power`` action carries, in the order a player
        chooses them: ``target`` (a seat), then the choice's own (``ingredient`` of the
        target; ``market`` and ``slot`` of a counter card; ``kind`` of recipe)."""
        return (("target",) if self.target is not None else ()) + CHOICE_PARAMS[self.choice]


CHOICE_PARAMS: dict[str | None, tuple[str, ...]] = {
    None: (), "ingredient": ("ingredient",), "slot": ("market", "slot"), "kind": ("kind",)}


# ---- the board -------------------------------------------------------------------------

MONEY_MOVE, BUY_BARTER, COOK_COUNTER = "money_move", "buy_barter", "cook_counter"
PHASE_NAMES = {MONEY_MOVE: "MONEY and MOVE", BUY_BARTER: "BUY and BARTER", COOK_COUNTER: "COOK and COUNTER"}
DAY_PLAN: tuple[str, ...] = (MONEY_MOVE, BUY_BARTER, COOK_COUNTER)  # an expansion may add a phase

ISLAND = "island"
MYSTERY_MART = "mystery_mart"


@dataclass(frozen=True)
class Ingredient:
    id: str
    name: str
    market: str
    price: int
    text: str = ""
    wild: bool = False  # Alien Goo stands in for any ingredient
    extras: tuple[Effect, ...] = ()  # a special added to a dish: its effects on that dish


@dataclass(frozen=True)
class Market:
    id: str
    name: str
    category: str  # meat, dairy, carbs, fruit, vegetables, specials
    price: int  # per card (the Mystery Mart prices each special itself)
    counts: dict[str, int]  # ingredient id -> cards in the market deck
    corner: bool
    position: tuple[int, int]  # column, row on a 3 x 3 board (the Island is 1, 1)
    counter_size: int = 6


@dataclass(frozen=True)
class Location:
    id: str
    name: str
    position: tuple[int, int]
    corner: bool = False
    market: bool = True


MARKETS: dict[str, Market] = {
    m.id: m
    for m in (
        Market("chop_shop", "Chop Shop", "meat", 200,
               {"pork": 6, "chicken": 5, "beef": 5, "bacon": 5, "shrimp": 4, "fish": 3},
               corner=True, position=(0, 0)),
        Market("dairy_king", "Dairy King", "dairy", 200,
               {"cheese": 9, "egg": 6, "cream": 4, "yogurt": 4, "milk": 4, "butter": 4},
               corner=True, position=(2, 0)),
        Market("veg_out", "The Veg Out", "vegetables", 100,
               {"onion": 9, "garlic": 7, "chili": 6, "mushroom": 5, "seaweed": 4, "lettuce": 4},
               corner=True, position=(0, 2)),
        Market("carb_wash", "The Carb Wash", "carbs", 100,
               {"bread": 7, "rice": 6, "potato": 6, "noodles": 5, "tortilla": 5, "pasta": 5},
               corner=True, position=(2, 2)),
        Market("fruit_punch", "Fruit Punch", "fruit", 100,
               {"tomato": 8, "lemon": 5, "avocado": 4, "lime": 4, "olive": 4, "mango": 3},
               corner=False, position=(1, 0)),
        Market(MYSTERY_MART, "Mystery Mart", "specials", 0,
               {"chocolate": 3, "secret_sauce": 3, "tofu": 3, "wine": 3, "alien_goo": 3},
               corner=False, position=(1, 2), counter_size=3),
    )
}

LOCATIONS: dict[str, Location] = {
    **{m.id: Location(m.id, m.name, m.position, m.corner) for m in MARKETS.values()},
    ISLAND: Location(ISLAND, "The Island", (1, 1), market=False),
}
CORNERS: tuple[str, ...] = tuple(m.id for m in MARKETS.values() if m.corner)
STARTING_MARKETS: tuple[str, ...] = tuple(m for m in MARKETS if m != MYSTERY_MART)

_NAMES = {
    "pork": "Pork", "chicken": "Chicken", "beef": "Beef", "bacon": "Bacon", "shrimp": "Shrimp",
    "fish": "Fish", "cheese": "Cheese", "egg": "Eggs", "cream": "Cream", "yogurt": "Yogurt",
    "milk": "Milk", "butter": "Butter", "onion": "Onion", "garlic": "Garlic", "chili": "Chili",
    "mushroom": "Mushroom", "seaweed": "Seaweed", "lettuce": "Lettuce", "bread": "Bread",
    "rice": "Rice", "potato": "Potato", "noodles": "Noodles", "tortilla": "Tortilla",
    "pasta": "Pasta", "tomato": "Tomato", "lemon": "Lemon", "avocado": "Avocado", "lime": "Lime",
    "olive": "Olive", "mango": "Mango",
}

SPECIALS: tuple[Ingredient, ...] = (
    Ingredient("chocolate", "Chocolate", MYSTERY_MART, 100,
               "Add to a dish: +1 popularity.",
               extras=(Effect("dish_points", "add", {"key": "points", "n": 1}),)),
    Ingredient("wine", "Wine", MYSTERY_MART, 200,
               "Add to a dish: +1 popularity, +2 with a gourmet recipe.",
               extras=(Effect("dish_points", "add", {"key": "points", "n": 1}),
                       Effect("dish_points", "add", {"key": "points", "n": 1, "kind": "gourmet"}))),
    Ingredient("secret_sauce", "Secret Sauce", MYSTERY_MART, 200,
               "Add to a dish: the garbage you hold does not lower its popularity.",
               extras=(Effect("dish_penalty", "set", {"key": "penalty", "n": 0}),)),
    Ingredient("tofu", "Tofu", MYSTERY_MART, 100,
               "Add to a dish: take 2 fewer garbage for it.",
               extras=(Effect("dish_garbage", "add", {"key": "garbage", "n": -2}),)),
    Ingredient("alien_goo", "Alien Goo", MYSTERY_MART, 200,
               "Stands in for any one ingredient of a recipe.", wild=True),
)

INGREDIENTS: dict[str, Ingredient] = {
    **{i: Ingredient(i, _NAMES[i], m.id, m.price) for m in MARKETS.values() if m.id != MYSTERY_MART
       for i in m.counts},
    **{s.id: s for s in SPECIALS},
}
EXTRAS: tuple[str, ...] = tuple(s.id for s in SPECIALS if not s.wild)  # added to a dish
WILD: str = "alien_goo"

# ---- recipes ---------------------------------------------------------------------------

BASIC, GOURMET = "basic", "gourmet"
KINDS: tuple[str, ...] = (BASIC, GOURMET)


@dataclass(frozen=True)
class Recipe:
    id: str
    name: str
    cuisine: str
    kind: str
    ingredients: tuple[str, ...]
    points: int
    garbage: int


CUISINES: dict[str, str] = {
    "japanese": "Japanese", "mexican": "Mexican", "italian": "Italian", "chinese": "Chinese",
    "indian": "Indian", "french": "French", "american": "American", "greek": "Greek",
}

RECIPES: dict[str, Recipe] = {
    r.id: r
    for r in (
        Recipe("onigiri", "Onigiri", "japanese", BASIC, ("rice", "seaweed"), 2, 1),
        Recipe("tamago_ramen", "Tamago Ramen", "japanese", BASIC, ("noodles", "egg", "mushroom"), 3, 1),
        Recipe("teriyaki_chicken", "Teriyaki Chicken", "japanese", BASIC, ("chicken", "rice", "garlic"), 3, 2),
        Recipe("sushi_platter", "Sushi Platter", "japanese", GOURMET,
               ("fish", "shrimp", "rice", "seaweed", "avocado"), 7, 2),
        Recipe("tonkotsu_ramen", "Tonkotsu Ramen", "japanese", GOURMET,
               ("pork", "noodles", "egg", "mushroom", "onion"), 7, 3),
        Recipe("guacamole", "Guacamole", "mexican", BASIC, ("avocado", "lime", "onion"), 3, 1),
        Recipe("quesadilla", "Quesadilla", "mexican", BASIC, ("tortilla", "cheese"), 2, 1),
        Recipe("huevos_rancheros", "Huevos Rancheros", "mexican", BASIC, ("egg", "tortilla", "tomato"), 3, 1),
        Recipe("tacos_al_pastor", "Tacos al Pastor", "mexican", GOURMET,
               ("pork", "tortilla", "onion", "lime", "chili"), 6, 2),
        Recipe("enchiladas_suizas", "Enchiladas Suizas", "mexican", GOURMET,
               ("chicken", "tortilla", "cheese", "cream", "chili"), 7, 3),
        Recipe("bruschetta", "Bruschetta", "italian", BASIC, ("bread", "tomato", "garlic"), 3, 1),
        Recipe("pasta_pomodoro", "Pasta Pomodoro", "italian", BASIC, ("pasta", "tomato"), 2, 1),
        Recipe("caprese", "Caprese Salad", "italian", BASIC, ("cheese", "tomato", "olive"), 3, 1),
        Recipe("carbonara", "Spaghetti Carbonara", "italian", GOURMET, ("pasta", "bacon", "egg", "cheese"), 6, 2),
        Recipe("lasagna", "Lasagna", "italian", GOURMET, ("pasta", "beef", "cheese", "tomato", "onion"), 7, 3),
        Recipe("fried_rice", "Egg Fried Rice", "chinese", BASIC, ("rice", "egg", "onion"), 3, 1),
        Recipe("chow_mein", "Chow Mein", "chinese", BASIC, ("noodles", "mushroom", "garlic"), 3, 1),
        Recipe("wonton_soup", "Wonton Soup", "chinese", BASIC, ("shrimp", "noodles"), 2, 1),
        Recipe("kung_pao", "Kung Pao Chicken", "chinese", GOURMET,
               ("chicken", "chili", "garlic", "onion", "rice"), 6, 2),
        Recipe("char_siu_bao", "Char Siu Bao", "chinese", GOURMET, ("pork", "bread", "onion", "garlic"), 5, 2),
        Recipe("mango_lassi", "Mango Lassi", "indian", BASIC, ("mango", "yogurt"), 2, 1),
        Recipe("aloo_gobi", "Aloo Gobi", "indian", BASIC, ("potato", "onion", "chili"), 3, 1),
        Recipe("garlic_naan", "Garlic Naan", "indian", BASIC, ("bread", "butter", "garlic"), 3, 1),
        Recipe("butter_chicken", "Butter Chicken", "indian", GOURMET,
               ("chicken", "butter", "cream", "tomato", "rice"), 7, 3),
        Recipe("shrimp_vindaloo", "Shrimp Vindaloo", "indian", GOURMET,
               ("shrimp", "chili", "garlic", "potato", "rice"), 6, 2),
        Recipe("croque_monsieur", "Croque Monsieur", "french", BASIC, ("bread", "cheese", "bacon"), 3, 2),
        Recipe("omelette", "Omelette du Fromage", "french", BASIC, ("egg", "cheese", "mushroom"), 3, 1),
        Recipe("onion_soup", "French Onion Soup", "french", BASIC, ("onion", "bread", "cheese"), 3, 1),
        Recipe("coq_au_vin", "Coq au Vin", "french", GOURMET,
               ("chicken", "bacon", "mushroom", "onion", "garlic"), 7, 3),
        Recipe("creme_brulee", "Crème Brûlée", "french", GOURMET, ("cream", "egg", "milk", "lemon"), 5, 1),
        Recipe("hot_dog", "Hot Dog", "american", BASIC, ("pork", "bread", "onion"), 3, 2),
        Recipe("mac_and_cheese", "Mac & Cheese", "american", BASIC, ("pasta", "cheese", "milk"), 3, 1),
        Recipe("loaded_potato", "Loaded Potato", "american", BASIC, ("potato", "cheese", "bacon"), 3, 2),
        Recipe("cheeseburger", "Cheeseburger Deluxe", "american", GOURMET,
               ("beef", "bread", "cheese", "lettuce", "tomato"), 7, 3),
        Recipe("smokehouse", "Smokehouse Platter", "american", GOURMET,
               ("beef", "pork", "potato", "onion", "chili"), 7, 3),
        Recipe("greek_salad", "Greek Salad", "greek", BASIC, ("tomato", "olive", "lettuce"), 3, 1),
        Recipe("tzatziki", "Tzatziki", "greek", BASIC, ("yogurt", "garlic", "lemon"), 3, 1),
        Recipe("lemon_potatoes", "Lemon Potatoes", "greek", BASIC, ("potato", "lemon"), 2, 1),
        Recipe("moussaka", "Moussaka", "greek", GOURMET, ("beef", "potato", "tomato", "cheese", "milk"), 7, 3),
        Recipe("souvlaki", "Souvlaki Platter", "greek", GOURMET,
               ("pork", "bread", "yogurt", "tomato", "lemon"), 6, 2),
    )
}

CUISINE_BONUS = 1  # popularity for cooking a recipe of your restaurant's cuisine


def meats(recipe: Recipe) -> int:
    """How many of a recipe's ingredients are meat (Chop Shop)."""
    return sum(INGREDIENTS[i].market == "chop_shop" for i in recipe.ingredients)


# ---- chefs -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Chef:
    id: str
    name: str
    title: str
    phase: str  # the phase printed on the card
    power: str
    text: str
    effects: tuple[Effect, ...] = ()
    play: Play | None = None  # an active power, used once a day


CHEFS: dict[str, Chef] = {
    c.id: c
    for c in (
        Chef("biff_brobeque", "Biff Brobeque", "The Grill Sergeant", COOK_COUNTER, "Meat Sweats",
             "May use any meat in place of any vegetable. Earns $300 and 1 extra popularity each "
             "time he cooks a dish with 2 or more meats (meat standing in for a vegetable counts).",
             (Effect("substitutes", "substitute", {"use": "chop_shop", "for": ["veg_out"], "per_dish": 99}),
              Effect("dish_points", "add", {"key": "points", "n": 1, "min_meats": 2}),
              Effect("cooked", "gain_money", {"amount": 300, "min_meats": 2}))),
        Chef("pork_knuckles", "Pork Knuckles", "The Porkfather", BUY_BARTER, "Shakedown",
             "Once a day, takes one ingredient from another chef at his location, paying them "
             "its market price plus $200.",
             (Effect("now", "take_ingredient", {"pay": "price", "extra": 200}, location_based=True),),
             Play(BUY_BARTER, target="chef_here", choice="ingredient")),
        Chef("clam_voyance", "Clam-Voyance", "The Shellseer", MONEY_MOVE, "Saw It Coming",
             "When he picks his location he may foresee one chef: the first action card or "
             "chef power that chef uses that day is stopped (never a SPORK). If it comes "
             "true, he earns $200.",
             (Effect("before_play", "foresee_stop", {"reward": 200}),)),
        Chef("penny_pincher", "Penny Pincher", "The Coupon Queen", MONEY_MOVE, "Penny Saved",
             "Earns $100 more income every day.",
             (Effect("income", "add", {"key": "income", "n": 100}),)),
        Chef("marco_polenta", "Marco Polenta", "The Wanderer", MONEY_MOVE, "Road Less Travelled",
             "Earns $400 when no other chef picked his location.",
             (Effect("reveal", "gain_money", {"amount": 400, "alone": True}, location_based=True),)),
        Chef("julia_chopper", "Julia Chopper", "The Butcher's Darling", BUY_BARTER, "Sweet Talk",
             "Pays $100 less for meat and dairy she buys or claims at her location.",
             (Effect("price", "add", {"key": "price", "n": -100, "markets": ["chop_shop", "dairy_king"]},
                     location_based=True),)),
        Chef("tex_mex_rex", "Tex-Mex Rex", "The Wheeler-Dealer", BUY_BARTER, "Done Deal",
             "Earns $250 from the bank for each barter he completes in which both sides give "
             "something, at most $500 a day.",
             (Effect("traded", "gain_money", {"amount": 250, "daily_cap": 500, "exchange": True}),)),
        Chef("sal_monella", "Sal Monella", "The Sneeze Guard", BUY_BARTER, "Take Out the Trash",
             "Once a day, pays another chef $200 to take one of her garbage, wherever they are.",
             (Effect("now", "move_garbage", {"n": 1, "pay": 200}),),
             Play(BUY_BARTER, target="chef")),
        Chef("dumpster_dan", "Dumpster Dan", "The Recycler", COOK_COUNTER, "Waste Not",
             "Takes 1 garbage less for every recipe he cooks.",
             (Effect("dish_garbage", "add", {"key": "garbage", "n": -1}),)),
        Chef("auntie_pasta", "Auntie Pasta", "The Family Cook", COOK_COUNTER, "Grandma's Secret",
             "Once a day, one missing carb, fruit or vegetable of a basic recipe she cooks counts "
             "as present.",
             (Effect("substitutes", "substitute", {"use": "nothing", "per_day": 1, "recipe_kind": BASIC,
                                                   "for": ["carb_wash", "fruit_punch", "veg_out"]}),)),
        Chef("dr_umami", "Dr. Umami", "The Flavor Scientist", COOK_COUNTER, "Flavor Science",
             "Twice per dish, an ingredient may stand in for another from the same market.",
             (Effect("substitutes", "substitute", {"use": "same_market", "per_dish": 2}),)),
        Chef("gordon_rampage", "Gordon Rampage", "The Screaming Skillet", COOK_COUNTER, "Michelin Star",
             "Earns 1 extra popularity for every gourmet recipe he cooks.",
             (Effect("dish_points", "add", {"key": "points", "n": 1, "kind": GOURMET}),)),
    )
}

# ---- restaurants -----------------------------------------------------------------------

LEVELS: tuple[tuple[int, str], ...] = ((3, "Rising Dough"), (7, "Hot Sauce"), (12, "Big Cheese"))


@dataclass(frozen=True)
class Level:
    threshold: int
    name: str
    text: str
    effects: tuple[Effect, ...]
    replaces_previous: bool = False  # this level's power replaces the earlier ones


@dataclass(frozen=True)
class Restaurant:
    id: str
    name: str
    cuisine: str
    levels: tuple[Level, ...]


def _levels(*rewards: tuple[str, tuple[Effect, ...]]) -> tuple[Level, ...]:
    """The three level-up rewards at 3, 7 and 12 popularity, named after the levels."""
    return tuple(Level(t, name, text, effects) for (t, name), (text, effects) in zip(LEVELS, rewards))


def _money(n: int) -> Effect:
    return Effect("now", "gain_money", {"amount": n})


def _income(n: int) -> Effect:
    return Effect("income", "add", {"key": "income", "n": n})


def _cuisine_points(n: int) -> Effect:
    return Effect("dish_points", "add", {"key": "points", "n": n, "own_cuisine": True})


def _fewer_garbage(n: int) -> Effect:
    return Effect("dish_garbage", "add", {"key": "garbage", "n": -n})


RESTAURANTS: dict[str, Restaurant] = {
    r.id: r
    for r in (
        Restaurant("rising_sun", "The Rising Sun", "japanese", _levels(
            ("Gain $300.", (_money(300),)),
            ("Take 1 garbage less for every recipe you cook.", (_fewer_garbage(1),)),
            ("Dump all your garbage.", (Effect("now", "dump_garbage", {"n": "all"}),)))),
        Restaurant("luchador_picante", "Luchador Picante", "mexican", _levels(
            ("Gain $300.", (_money(300),)),
            ("+1 popularity for every Mexican recipe you cook.", (_cuisine_points(1),)),
            ("+1 popularity for every recipe you cook.", (Effect("dish_points", "add", {"key": "points", "n": 1}),)))),
        Restaurant("pasta_la_vista", "Pasta La Vista", "italian", _levels(
            ("Earn $100 more income every day.", (_income(100),)),
            ("+1 popularity for every Italian recipe you cook.", (_cuisine_points(1),)),
            ("Dump all your garbage.", (Effect("now", "dump_garbage", {"n": "all"}),)))),
        Restaurant("wok_this_way", "Wok This Way", "chinese", _levels(
            ("Gain $200 and dump 2 garbage.", (_money(200), Effect("now", "dump_garbage", {"n": 2}))),
            ("+1 popularity for every Chinese recipe you cook.", (_cuisine_points(1),)),
            ("Take 1 garbage less for every recipe you cook.", (_fewer_garbage(1),)))),
        Restaurant("curry_favor", "Curry Favor", "indian", _levels(
            ("Gain $300.", (_money(300),)),
            ("Earn $100 more income every day.", (_income(100),)),
            ("Take 1 garbage less for every recipe you cook.", (_fewer_garbage(1),)))),
        Restaurant("crepe_expectations", "Crêpe Expectations", "french", _levels(
            ("Gain $300.", (_money(300),)),
            ("+1 popularity for every French recipe you cook.", (_cuisine_points(1),)),
            ("Dump all your garbage.", (Effect("now", "dump_garbage", {"n": "all"}),)))),
        Restaurant("grill_seeker", "Grill Seeker", "american", _levels(
            ("Gain $200.", (_money(200),)),
            ("Dump 2 garbage and gain $200.", (Effect("now", "dump_garbage", {"n": 2}), _money(200))),
            ("+1 popularity for every recipe you cook.", (Effect("dish_points", "add", {"key": "points", "n": 1}),)))),
        Restaurant("feta_attraction", "Feta Attraction", "greek", _levels(
            ("Dump 2 garbage.", (Effect("now", "dump_garbage", {"n": 2}),)),
            ("+1 popularity for every Greek recipe you cook.", (_cuisine_points(1),)),
            ("Gain $300 and draw 2 action cards.", (_money(300), Effect("now", "draw_actions", {"n": 2})))),
        ),
    )
}

# ---- upgrades (the Island) ---------------------------------------------------------------


@dataclass(frozen=True)
class Card:
    """A card with effects: an upgrade or an action card."""

    id: str
    name: str
    text: str
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class Upgrade(Card):
    price: int = 0


UPGRADES: dict[str, Upgrade] = {
    u.id: u
    for u in (
        Upgrade("cash_register", "Cash Register", "Earn $100 more income every day.", (_income(100),), price=400),
        Upgrade("second_stove", "Second Stove", "Cook one more recipe every day.",
                (Effect("cook_limit", "add", {"key": "limit", "n": 1}),), price=600),
        Upgrade("compost_bin", "Compost Bin", "Take 1 garbage less for every recipe you cook.",
                (_fewer_garbage(1),), price=300),
        Upgrade("neon_sign", "Neon Sign", "+1 popularity for every recipe of your cuisine you cook.",
                (_cuisine_points(1),), price=500),
        Upgrade("spice_rack", "Spice Rack",
                "Once per dish, one ingredient may stand in for another from the same market.",
                (Effect("substitutes", "substitute", {"use": "same_market", "per_dish": 1}),), price=400),
    )
}

# ---- action cards ------------------------------------------------------------------------


@dataclass(frozen=True)
class ActionCard(Card):
    play: Play = Play(BUY_BARTER)
    copies: int = 3


ACTION_CARDS: dict[str, ActionCard] = {
    a.id: a
    for a in (
        ActionCard("windfall", "Windfall", "Gain $300.", (_money(300),), Play(MONEY_MOVE)),
        ActionCard("flash_sale", "Flash Sale", "Today, cards you buy or claim at your location cost $100 less.",
                   (Effect("price", "add", {"key": "price", "n": -100}, location_based=True),), Play(BUY_BARTER)),
        ActionCard("home_delivery", "Home Delivery",
                   "Buy one counter card at any market, wherever you are, at its price.",
                   (Effect("now", "remote_buy"),), Play(BUY_BARTER, choice="slot")),
        ActionCard("pickpocket", "Pickpocket", "Take up to $200 from another chef.",
                   (Effect("now", "take_money", {"amount": 200}),), Play(BUY_BARTER, target="chef")),
        ActionCard("swipe", "Swipe", "Take one ingredient from another chef; pay them $100.",
                   (Effect("now", "take_ingredient", {"pay": 100}),),
                   Play(BUY_BARTER, target="chef", choice="ingredient")),
        ActionCard("health_inspection", "Health Inspection", "Another chef takes 2 garbage.",
                   (Effect("now", "add_garbage", {"n": 2}),), Play(BUY_BARTER, target="chef")),
        ActionCard("menu_shakeup", "Menu Shake-up",
                   "Discard one of your recipes and draw a new one of the same kind.",
                   (Effect("now", "redraw_recipe"),), Play(BUY_BARTER, choice="kind")),
        ActionCard("garbage_day", "Garbage Day", "Dump up to 2 of your garbage for free.",
                   (Effect("now", "dump_garbage", {"n": 2}),), Play(BUY_BARTER)),
        ActionCard("rave_review", "Rave Review", "Today, +2 popularity for every recipe you cook.",
                   (Effect("dish_points", "add", {"key": "points", "n": 2}),), Play(COOK_COUNTER)),
        ActionCard("secret_ingredient", "Secret Ingredient",
                   "Today, one missing ingredient of a recipe you cook counts as present.",
                   (Effect("substitutes", "substitute", {"use": "nothing", "per_day": 1}),), Play(COOK_COUNTER)),
        ActionCard("overtime", "Overtime", "Today, cook one more recipe.",
                   (Effect("cook_limit", "add", {"key": "limit", "n": 1}),), Play(COOK_COUNTER)),
        ActionCard("bad_review", "Bad Review",
                   "Today, another chef earns 2 popularity less for every recipe they cook.",
                   (Effect("dish_points", "add", {"key": "points", "n": -2}, on="target"),),
                   Play(COOK_COUNTER, target="chef")),
    )
}
ACTION_DECK: tuple[str, ...] = tuple(f"{a.id}-{i + 1}" for a in ACTION_CARDS.values() for i in range(a.copies))


def action_kind(card: str) -> ActionCard:
    """The action card behind a card id such as ``windfall-2``."""
    return ACTION_CARDS[card.rsplit("-", 1)[0]]


# ---- the rest of the set-up ----------------------------------------------------------------

INCOME = 300
ACTION_PRICE = 200  # an action card at the Island
DUMP_PRICE = 100  # per garbage dumped at the Island
BID_STEP = 100  # the smallest raise in an auction
GOAL = 20
STARTING_ACTIONS = 1
