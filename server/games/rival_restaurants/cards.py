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
from functools import cache
from typing import Any

class Cards(dict[str, Any]):
    """A table of cards by id. Cards are data: never changed, a table edited only by a test
    adding or replacing a card; every such edit of any table is counted (``edits``), so that
    what is kept from the cards is known to be stale."""

    edits = 0

    def __setitem__(self, key: str, value: Any) -> None:
        Cards.edits += 1
        super().__setitem__(key, value)

    def __delitem__(self, key: str) -> None:
        Cards.edits += 1
        super().__delitem__(key)


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
    and what else the player chooses (see ``CHOICE_PARAMS``: "ingredient" of the target,
    "own_ingredient" of your own, "slot": a counter card anywhere, "shaker_slot": a shaker
    and a counter card, "kind": basic or gourmet, "market": an ingredient market,
    "dumpster": a card in Joe's Dumpster, None)."""

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
    None: (), "ingredient": ("ingredient",), "own_ingredient": ("ingredient",), "slot": ("market", "slot"),
    "shaker_slot": ("shaker", "market", "slot"), "kind": ("kind",), "market": ("market",),
    "dumpster": ("market", "ingredient")}


@dataclass(frozen=True)
class Use:
    """An active power, used like an action card (the ``power`` action with this ``id`` as
    its ``use``): its own effects, and its own limit — ``per_day`` uses a day (None: no
    daily limit; the effect's check may limit it otherwise)."""

    id: str
    name: str
    text: str
    play: Play
    effects: tuple[Effect, ...]
    per_day: int | None = 1


# ---- the board -------------------------------------------------------------------------

ACTION_AUCTION = "action_auction"  # SPORKS Out
CHOOSE_RESTAURANT = "choose_restaurant"  # Day 1, when restaurants are chosen rather than dealt
KITCHEN_SQUAD = "kitchen_squad"  # the two-player mode: today's chef is chosen every morning
MONEY_MOVE, BUY_BARTER, COOK_COUNTER = "money_move", "buy_barter", "cook_counter"
PHASE_NAMES = {CHOOSE_RESTAURANT: "Choose restaurants", KITCHEN_SQUAD: "Kitchen Squad", ACTION_AUCTION: "Action Auction", MONEY_MOVE: "MONEY and MOVE", BUY_BARTER: "BUY and BARTER",
               COOK_COUNTER: "COOK and COUNTER"}
DAY_PLAN: tuple[str, ...] = (MONEY_MOVE, BUY_BARTER, COOK_COUNTER)
SPORKS_DAY_PLAN: tuple[str, ...] = (ACTION_AUCTION, *DAY_PLAN)

# The boxes content comes in: a match deals only from the boxes its options choose (``pool``).
BASE, SPORKS_OUT = "base", "sporks_out"

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

INGREDIENTS: dict[str, Ingredient] = Cards({
    **{i: Ingredient(i, _NAMES[i], m.id, m.price) for m in MARKETS.values() if m.id != MYSTERY_MART
       for i in m.counts},
    **{s.id: s for s in SPECIALS},
})
EXTRAS: tuple[str, ...] = tuple(s.id for s in SPECIALS if not s.wild)  # added to a dish
WILD: str = "alien_goo"
GARBAGE: str = "garbage"  # a stand-in some powers allow (The Greasy Bucket); never a card

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
    box: str = BASE


CUISINES: dict[str, str] = {
    "japanese": "Japanese", "mexican": "Mexican", "italian": "Italian", "chinese": "Chinese",
    "indian": "Indian", "french": "French", "american": "American", "greek": "Greek",
    # SPORKS Out
    "thai": "Thai", "middle_eastern": "Middle Eastern", "southern": "Southern", "hawaiian": "Hawaiian",
    "cuban": "Cuban",
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
        # ---- SPORKS Out: 14 basic + 14 gourmet recipes of the base game's ingredients (designed)
        Recipe("pad_thai", "Pad Thai", "thai", BASIC, ("noodles", "egg", "lime"), 3, 1, SPORKS_OUT),
        Recipe("mango_sticky_rice", "Mango Sticky Rice", "thai", BASIC, ("mango", "rice"), 2, 1, SPORKS_OUT),
        Recipe("tom_yum", "Tom Yum", "thai", BASIC, ("shrimp", "lime", "chili"), 3, 2, SPORKS_OUT),
        Recipe("green_curry", "Green Curry", "thai", GOURMET, ("chicken", "chili", "cream", "garlic", "rice"), 7, 3,
               SPORKS_OUT),
        Recipe("pad_see_ew", "Pad See Ew", "thai", GOURMET, ("noodles", "beef", "egg", "garlic", "onion"), 6, 2,
               SPORKS_OUT),
        Recipe("massaman_curry", "Massaman Curry", "thai", GOURMET, ("beef", "potato", "onion", "chili", "rice"), 7, 3,
               SPORKS_OUT),
        Recipe("hummus", "Hummus", "middle_eastern", BASIC, ("garlic", "lemon", "olive"), 3, 1, SPORKS_OUT),
        Recipe("shakshuka", "Shakshuka", "middle_eastern", BASIC, ("egg", "tomato", "chili"), 3, 1, SPORKS_OUT),
        Recipe("fattoush", "Fattoush", "middle_eastern", BASIC, ("bread", "lettuce", "lemon"), 3, 1, SPORKS_OUT),
        Recipe("chicken_shawarma", "Chicken Shawarma", "middle_eastern", GOURMET,
               ("chicken", "bread", "garlic", "yogurt", "tomato"), 7, 3, SPORKS_OUT),
        Recipe("beef_kofta", "Beef Kofta", "middle_eastern", GOURMET, ("beef", "onion", "garlic", "yogurt", "rice"),
               6, 2, SPORKS_OUT),
        Recipe("mezze_platter", "Mezze Platter", "middle_eastern", GOURMET,
               ("olive", "yogurt", "bread", "lemon", "cheese"), 6, 2, SPORKS_OUT),
        Recipe("biscuits_and_gravy", "Biscuits and Gravy", "southern", BASIC, ("bread", "butter", "milk"), 3, 1,
               SPORKS_OUT),
        Recipe("mashed_potatoes", "Garlic Mashed Potatoes", "southern", BASIC, ("potato", "butter", "garlic"), 3, 1,
               SPORKS_OUT),
        Recipe("chicken_tenders", "Chicken Tenders", "southern", BASIC, ("chicken", "bread", "egg"), 3, 2, SPORKS_OUT),
        Recipe("fried_chicken_bucket", "Fried Chicken Bucket", "southern", GOURMET,
               ("chicken", "bread", "egg", "potato", "butter"), 7, 3, SPORKS_OUT),
        Recipe("shrimp_po_boy", "Shrimp Po' Boy", "southern", GOURMET, ("shrimp", "bread", "lettuce", "tomato"), 5, 2,
               SPORKS_OUT),
        Recipe("pulled_pork", "Pulled Pork Plate", "southern", GOURMET, ("pork", "bread", "onion", "tomato", "chili"),
               6, 2, SPORKS_OUT),
        Recipe("spam_musubi", "Spam Musubi", "hawaiian", BASIC, ("pork", "rice", "seaweed"), 3, 2, SPORKS_OUT),
        Recipe("spam_and_eggs", "Spam and Eggs", "hawaiian", BASIC, ("pork", "egg", "rice"), 3, 2, SPORKS_OUT),
        Recipe("lomi_salmon", "Lomi Salmon", "hawaiian", BASIC, ("fish", "tomato", "onion"), 3, 1, SPORKS_OUT),
        Recipe("loco_moco", "Loco Moco", "hawaiian", GOURMET, ("beef", "egg", "rice", "onion", "mushroom"), 7, 3,
               SPORKS_OUT),
        Recipe("ahi_poke", "Ahi Poke Bowl", "hawaiian", GOURMET, ("fish", "avocado", "seaweed", "rice", "onion"), 7, 2,
               SPORKS_OUT),
        Recipe("huli_huli_chicken", "Huli Huli Chicken", "hawaiian", GOURMET, ("chicken", "mango", "garlic", "rice"),
               5, 2, SPORKS_OUT),
        Recipe("mojo_potatoes", "Mojo Potatoes", "cuban", BASIC, ("potato", "garlic", "lime"), 3, 1, SPORKS_OUT),
        Recipe("arroz_con_huevo", "Arroz con Huevo", "cuban", BASIC, ("rice", "egg", "tomato"), 3, 1, SPORKS_OUT),
        Recipe("cubano", "Cubano Sandwich", "cuban", GOURMET, ("pork", "bacon", "cheese", "bread"), 6, 2, SPORKS_OUT),
        Recipe("ropa_vieja", "Ropa Vieja", "cuban", GOURMET, ("beef", "tomato", "onion", "garlic", "rice"), 7, 3,
               SPORKS_OUT),
    )
}

CUISINE_BONUS = 1  # popularity for cooking a recipe of your restaurant's cuisine


def meats(recipe: Recipe) -> int:
    """How many of a recipe's ingredients are meat (Chop Shop)."""
    return sum(INGREDIENTS[i].market == "chop_shop" for i in recipe.ingredients)


# ---- chefs -----------------------------------------------------------------------------

MISSILE_PARTS = 3  # Papa Tio's Nuclear Missile (designed)
SHAKERS: tuple[str, ...] = ("salt", "pepper")  # the Sultan's


@dataclass(frozen=True)
class Chef:
    id: str
    name: str
    title: str
    phase: str  # the phase printed on the card
    power: str
    text: str
    effects: tuple[Effect, ...] = ()  # its lasting powers
    uses: tuple[Use, ...] = ()  # its active powers
    box: str = BASE

    @property
    def spork(self) -> bool:
        """A SPORKS Out chef: every power of it is a SPORK (nothing stops it)."""
        return self.box == SPORKS_OUT

    def use(self, ident: str) -> Use | None:
        return next((u for u in self.uses if u.id == ident), None)


CHEFS: dict[str, Chef] = Cards({
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
             uses=(Use("shakedown", "Shakedown", "Take an ingredient from a chef at your location.",
                       Play(BUY_BARTER, target="chef_here", choice="ingredient"),
                       (Effect("now", "take_ingredient", {"pay": "price", "extra": 200}, location_based=True),)),)),
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
             uses=(Use("take_out_the_trash", "Take Out the Trash", "Pay another chef $200 to take one garbage.",
                       Play(BUY_BARTER, target="chef"), (Effect("now", "move_garbage", {"n": 1, "pay": 200}),)),)),
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
        # ---- SPORKS Out: the rulebook summarises each power; the SPORK mechanics are designed.
        # Every power of these chefs is a SPORK: nothing (Clam-Voyance included) stops it.
        Chef("pam_knee_you", "Pam Knee You", "The Thaigress", BUY_BARTER, "Thai and Mighty",
             "Each day she is revealed at a corner market marks it on her boxing ring; with all 4 corners marked "
             "she earns the Boxing Gloves (and starts a new ring). Each glove is used once, at any location, like "
             "an action card but outside the one-a-day limit, and cannot be blocked or stolen; both may be used "
             "on one day, never on the same chef.",
             (Effect("reveal", "boxing_ring", {"gloves": ["knockout", "rob"]}),),
             (Use("knockout", "Knockout Glove",
                  "Knock another chef out of today's market (as if they had said done); they take 1 garbage.",
                  Play(BUY_BARTER, target="chef", stoppable=False), (Effect("now", "knockout", {"garbage": 1}),),
                  per_day=None),
              Use("rob", "Rob Glove", "Rob another chef blind: take one of their ingredients and up to $200.",
                  Play(BUY_BARTER, target="chef", choice="ingredient", stoppable=False),
                  (Effect("now", "rob", {"amount": 200}),), per_day=None)),
             SPORKS_OUT),
        Chef("papa_tio", "Papa Tio", "El Chefe", BUY_BARTER, "Cuban Meal Crisis",
             "Missile Craft, once a day: put one of his ingredients into his Nuclear Missile (3 make it). Lunch "
             "Button, once the missile is built: choose a market; every other chef discards every ingredient "
             "they hold from it, and so do the missile's parts. He cannot craft again until the missile is "
             "launched.",
             (),
             (Use("missile_craft", "Missile Craft", "Put one of your ingredients into your Nuclear Missile.",
                  Play(BUY_BARTER, choice="own_ingredient", stoppable=False),
                  (Effect("now", "missile_craft", {"parts": MISSILE_PARTS}),)),
              Use("lunch_button", "Lunch Button",
                  "Launch the missile at a market: every other chef discards every ingredient they hold from it.",
                  Play(BUY_BARTER, choice="market", stoppable=False),
                  (Effect("now", "lunch_button", {"parts": MISSILE_PARTS}),))),
             SPORKS_OUT),
        Chef("sloppy_joe", "Sloppy Joe", "The Greasy Shamburglar", BUY_BARTER, "Dumpster Diver",
             "Once a day he sends Scraps the Raccoon to a market: from then on every ingredient discarded there "
             "goes into Joe's Dumpster instead. He takes any Dumpster card by taking 1 garbage for it. In COOK "
             "and COUNTER, when a market's shelf runs empty, he returns that market's Dumpster cards so the shelf "
             "can be refilled. Dumpster cards are nobody's: they cannot be traded or touched by any power or card.",
             (Effect("discarded", "scraps"),),
             (Use("scraps", "Scraps the Raccoon", "Send Scraps to a market: its discards go to Joe's Dumpster.",
                  Play(BUY_BARTER, choice="market", stoppable=False), (Effect("now", "send_scraps"),)),
              Use("dumpster_dive", "Dumpster Dive", "Take a card from Joe's Dumpster by taking 1 garbage.",
                  Play(BUY_BARTER, choice="dumpster", stoppable=False),
                  (Effect("now", "dumpster_dive", {"garbage": 1}),), per_day=None)),
             SPORKS_OUT),
        Chef("sultan_pepper_shakrh", "Sultan Pepper Shakrh", "The Spiceroy", MONEY_MOVE, "Shake Things Up",
             "Once a day, before the reveal, he puts the Salt or the Pepper Shaker on any counter card. Its buyer "
             "is in for a surprise — Salt: they take 2 garbage; Pepper: they pay him up to $100. If nobody buys "
             "it by the end of the day, it goes into his hands at its price, if he can pay it. The shaker then "
             "comes back to him.",
             (Effect("acquired", "shaker_surprise", {"salt": 2, "pepper": 100}),
              Effect("counters_close", "shaker_unbought")),
             (Use("shake", "Shake Things Up", "Put the Salt or the Pepper Shaker on a counter card.",
                  Play(MONEY_MOVE, choice="shaker_slot", stoppable=False), (Effect("now", "shake"),)),),
             SPORKS_OUT),
        Chef("wahine", "Wahine Poi Poi Kanakakuke", "The Umami Mommy", MONEY_MOVE, "Lady of the Luau",
             "Once a day, before the reveal, she throws a Luau at a market (not the Mystery Mart). At the reveal "
             "one card is drawn from its shelf for every other chef there — none for her, whether she goes or "
             "not. If a drawn card is listed on one of her recipes she keeps one such card; if none is, every "
             "other chef at the Luau earns $300. The other drawn cards are discarded.",
             (Effect("reveal", "luau", {"pay": 300}), Effect("day_start", "luau_over")),
             (Use("luau", "Luau", "Throw today's Luau at a market.",
                  Play(MONEY_MOVE, choice="market", stoppable=False), (Effect("now", "throw_luau"),)),),
             SPORKS_OUT),
    )
})

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
    box: str = BASE


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


RESTAURANTS: dict[str, Restaurant] = Cards({
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
        # ---- SPORKS Out: the rulebook names four and rules on some powers; the rest is designed
        Restaurant("crave_of_wonders", "Crave of Wonders", "middle_eastern", _levels(
            ("Earn $100 for every trade you make (both chefs give something), at most $300 a day.",
             (Effect("traded", "gain_money", {"amount": 100, "daily_cap": 300, "exchange": True}),)),
            ("When BUY and BARTER opens, draw one ingredient face down from the shelf of the market you stand "
             "at. Nobody may look at it, you included, and you cannot cook with it: trade it, and its receiver "
             "turns it face up.", (Effect("market_open", "hot_sauce", {"n": 1}, location_based=True),)),
            ("+1 popularity for every trade you make, at most 2 a day.",
             (Effect("traded", "gain_popularity", {"n": 1, "daily_cap": 2, "exchange": True}),))), SPORKS_OUT),
        Restaurant("thai_tanic", "Thai-Tanic", "thai", (
            Level(3, "Rising Dough", "+1 popularity for every Thai recipe you cook.", (_cuisine_points(1),)),
            Level(7, "Hot Sauce", "+2 popularity for every Thai recipe you cook (instead of Rising Dough).",
                  (_cuisine_points(2),), replaces_previous=True),
            Level(12, "Big Cheese", "+2 popularity for every Thai recipe and +1 for every other recipe you cook "
                  "(instead of Rising Dough and Hot Sauce).",
                  (_cuisine_points(1), Effect("dish_points", "add", {"key": "points", "n": 1})),
                  replaces_previous=True)), SPORKS_OUT),
        Restaurant("greasy_bucket", "The Greasy Bucket", "southern", _levels(
            ("Once a day, one of your garbage may stand in for a missing carb, fruit or vegetable: it is "
             "discarded and does not lower the dish's popularity.",
             (Effect("substitutes", "substitute", {"use": GARBAGE, "per_day": 1,
                                                   "for": ["carb_wash", "fruit_punch", "veg_out"]}),)),
            ("Dumping garbage at the Island costs you nothing.",
             (Effect("island_price", "set", {"key": "price", "n": 0, "item": "dump"}),)),
            ("+1 popularity for every recipe you cook.", (Effect("dish_points", "add", {"key": "points", "n": 1}),))),
            SPORKS_OUT),
        Restaurant("green_eggs_and_spam", "Green Eggs and Spam", "hawaiian", _levels(
            ("Gain $300.", (_money(300),)),
            ("+1 popularity for every Hawaiian recipe you cook.", (_cuisine_points(1),)),
            ("Cook one more recipe every day.", (Effect("cook_limit", "add", {"key": "limit", "n": 1}),))),
            SPORKS_OUT),
        Restaurant("havana_good_time", "Havana Good Time", "cuban", _levels(
            ("Earn $100 more income every day.", (_income(100),)),
            ("+1 popularity for every Cuban recipe you cook.", (_cuisine_points(1),)),
            ("Gain $300 and dump all your garbage.", (_money(300), Effect("now", "dump_garbage", {"n": "all"})))),
            SPORKS_OUT),
    )
})

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


UPGRADES: dict[str, Upgrade] = Cards({
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
})

# ---- action cards ------------------------------------------------------------------------


@dataclass(frozen=True)
class ActionCard(Card):
    play: Play = Play(BUY_BARTER)
    copies: int = 3


ACTION_CARDS: dict[str, ActionCard] = Cards({
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
})
ACTION_DECK: tuple[str, ...] = tuple(f"{a.id}-{i + 1}" for a in ACTION_CARDS.values() for i in range(a.copies))


def action_kind(card: str) -> ActionCard:
    """The action card behind a card id such as ``windfall-2``."""
    return ACTION_CARDS[card.rsplit("-", 1)[0]]


# ---- the rest of the set-up ----------------------------------------------------------------

INCOME = 300
ACTION_PRICE = 200  # an action card at the Island
DUMP_PRICE = 100  # per garbage dumped at the Island
GARBAGE_TOKENS = 32  # the box's garbage tokens: the supply is limited
BID_STEP = 100  # the smallest raise in an auction
GOAL = 20
STARTING_ACTIONS = 1


# ---- the pools a match deals from --------------------------------------------------------


@dataclass(frozen=True)
class Pool:
    """The content one match deals from, chosen by its options (``pool``)."""

    chefs: tuple[str, ...]
    restaurants: tuple[str, ...]
    recipes: tuple[str, ...]
    action_deck: tuple[str, ...]


@cache
def pool(sporks_out: bool = False, sporks_chefs: bool = True) -> Pool:
    """The base game's content, with SPORKS Out's restaurants and recipes when it is on,
    and its five chefs too unless ``sporks_chefs`` leaves them out."""
    boxes = {BASE, SPORKS_OUT} if sporks_out else {BASE}
    chef_boxes = boxes if sporks_chefs else {BASE}
    return Pool(chefs=tuple(c.id for c in CHEFS.values() if c.box in chef_boxes),
                restaurants=tuple(r.id for r in RESTAURANTS.values() if r.box in boxes),
                recipes=tuple(r.id for r in RECIPES.values() if r.box in boxes),
                action_deck=ACTION_DECK)
