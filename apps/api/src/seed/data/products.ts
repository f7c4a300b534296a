import { BENEFIT_AM, INGREDIENT_AM, inAmharic } from './amharic';

/** The demo catalogue: natural beauty products with English and Amharic texts, prices in ETB. */
export interface SeedProduct {
  key: string;
  name: string;
  nameAm: string;
  brand: string;
  description: string;
  descriptionAm: string;
  ingredients: string[];
  ingredientsAm: string[];
  keyIngredients: string[];
  benefits: string[];
  benefitsAm: string[];
  price: number;
  originalPrice?: number;
  stock: number;
  category: 'skincare' | 'makeup' | 'haircare' | 'fragrance';
  subCategory?: 'serums' | 'lips' | 'treatments' | 'masks' | 'eyes' | 'shampoo';
  size: string;
  skinTypes: string[];
  isFeatured: boolean;
  daysSinceCreated: number;
}

type Row = [
  key: string,
  name: string,
  nameAm: string,
  brand: string,
  category: SeedProduct['category'],
  subCategory: SeedProduct['subCategory'] | '',
  price: number,
  originalPrice: number,
  stock: number,
  featured: boolean,
  days: number,
  size: string,
  ingredients: string,
  description: string,
  descriptionAm: string,
];

// prettier-ignore
const ROWS: Row[] = [
  ['moringa-glow-serum', 'Moringa Glow Serum', 'የሞሪንጋ ብርሃን ሴረም', 'Habesha Naturals', 'skincare', 'serums', 890, 1050, 48, true, 12, '30 ml', 'Moringa oleifera seed oil, Aloe vera, Vitamin C, Glycerin', 'A light daily serum with cold-pressed moringa oil and vitamin C that evens tone and brightens dull skin.', 'ቀዝቃዛ በሆነ መንገድ በተጨመቀ የሞሪንጋ ዘይትና በቫይታሚን ሲ የተዘጋጀ ቀላል የዕለት ሴረም፤ የቆዳን ቀለም ያስተካክላል፣ ያበራል።'],
  ['black-seed-clarifying-serum', 'Black Seed Clarifying Serum', 'የጥቁር አዝሙድ ማጥሪያ ሴረም', 'Sheba Botanicals', 'skincare', 'serums', 760, 0, 35, false, 40, '30 ml', 'Nigella sativa seed oil, Niacinamide, Green tea extract, Glycerin', 'Black seed oil and niacinamide calm blemishes and refine pores without drying the skin.', 'የጥቁር አዝሙድ ዘይትና ኒያሲናሚድ ብጉርን ያረጋጋሉ፣ ቆዳን ሳያደርቁ ቀዳዳዎችን ያጠባሉ።'],
  ['frankincense-renewal-serum', 'Frankincense Renewal Serum', 'የዕጣን ማደሻ ሴረም', 'Axum Organics', 'skincare', 'serums', 1450, 0, 22, true, 5, '30 ml', 'Boswellia papyrifera resin oil, Rosehip oil, Squalane, Vitamin E', 'Tigray frankincense and rosehip oil in a silky night serum that softens fine lines.', 'የትግራይ ዕጣንና የሮዝሂፕ ዘይት ያሉበት ለስላሳ የማታ ሴረም፤ ቀጫጭን መሸብሸቦችን ያለሰልሳል።'],
  ['coffee-eye-serum', 'Coffee Bean Eye Serum', 'የቡና ፍሬ የዓይን ሴረም', 'Buna Beauty', 'skincare', 'serums', 680, 800, 4, false, 25, '15 ml', 'Coffea arabica seed extract, Caffeine, Hyaluronic acid, Cucumber extract', 'Caffeine from Ethiopian coffee beans reduces puffiness and dark circles after long days.', 'ከኢትዮጵያ ቡና የተገኘ ካፌይን ከረጅም ቀን በኋላ የዓይን እብጠትንና ጥቁር ክቦችን ይቀንሳል።'],
  ['rosehip-honey-serum', 'Rosehip & Honey Serum', 'የሮዝሂፕና የማር ሴረም', 'Lalibela Pure', 'skincare', 'serums', 940, 0, 60, false, 70, '30 ml', 'Rosa canina seed oil, Honey extract, Jojoba oil, Vitamin E', 'Nourishing rosehip oil with wild honey for dry skin that feels tight in the dry season.', 'በበጋ ወቅት ለሚደርቅና ለሚጠብቅ ቆዳ የሮዝሂፕ ዘይትና የዱር ማር ያለበት ገንቢ ሴረም።'],
  ['hibiscus-hydra-serum', 'Hibiscus Hydra Serum', 'የሂቢስከስ እርጥበት ሴረም', 'Tana Botanicals', 'skincare', 'serums', 820, 0, 0, false, 90, '30 ml', 'Hibiscus sabdariffa flower extract, Hyaluronic acid, Aloe vera, Panthenol', 'A water-light serum with hibiscus acids and hyaluronic acid for plump, hydrated skin.', 'በሂቢስከስ አሲድና በሃያሉሮኒክ አሲድ የተዘጋጀ ቀላል ሴረም፤ ቆዳን ያረሰርሳል፣ ይሞላል።'],
  ['shea-coffee-body-butter', 'Shea & Coffee Body Butter', 'የሺአ ቅቤና የቡና የሰውነት ቅባት', 'Habesha Naturals', 'skincare', 'treatments', 650, 0, 80, true, 30, '200 g', 'Butyrospermum parkii (shea) butter, Coffea arabica seed oil, Coconut oil, Vitamin E', 'Rich whipped shea butter with roasted coffee oil that melts into dry elbows, knees and heels.', 'ከተጠበሰ የቡና ዘይት ጋር የተገረፈ የሺአ ቅቤ፤ ደረቅ ክርንን፣ ጉልበትንና ተረከዝን ያለሰልሳል።'],
  ['aloe-soothing-gel', 'Aloe Soothing Gel', 'የእሬት ማረጋጊያ ጄል', 'Simien Herbals', 'skincare', 'treatments', 320, 380, 95, false, 55, '150 ml', 'Aloe barbadensis leaf juice, Cucumber extract, Glycerin, Allantoin', 'Cooling aloe gel for sun-stressed skin after a day under the Addis sun.', 'በአዲስ አበባ ፀሐይ ለተጎዳ ቆዳ የሚያቀዘቅዝ የእሬት ጄል።'],
  ['black-seed-spot-treatment', 'Black Seed Spot Treatment', 'የጥቁር አዝሙድ የብጉር ሕክምና', 'Sheba Botanicals', 'skincare', 'treatments', 390, 0, 3, false, 18, '15 ml', 'Nigella sativa seed oil, Tea tree oil, Zinc PCA, Witch hazel', 'A targeted overnight gel with black seed and tea tree oils for stubborn spots.', 'ለማይለቁ ብጉሮች በጥቁር አዝሙድና በቲ ትሪ ዘይት የተዘጋጀ የማታ ጄል።'],
  ['teff-gentle-exfoliant', 'Teff Gentle Exfoliant', 'የጤፍ ለስላሳ ማጽጃ', 'Tena Skin', 'skincare', 'treatments', 540, 0, 42, false, 65, '100 ml', 'Eragrostis tef flour, Honey, Oat extract, Glycerin', 'Finely milled teff and honey polish away dullness while staying gentle on sensitive skin.', 'በደቃቁ የተፈጨ ጤፍና ማር የደከመ ቆዳን ያጸዳሉ፣ ለስሱ ቆዳም ለስላሳ ናቸው።'],
  ['tena-adam-balm', 'Tena Adam Healing Balm', 'የጤና አዳም ማለስለሻ ባም', 'Simien Herbals', 'skincare', 'treatments', 450, 0, 0, false, 100, '50 g', 'Ruta chalepensis extract, Beeswax, Shea butter, Olive oil', 'A traditional rue and beeswax balm for chapped hands and cracked skin.', 'ለተሰነጣጠቀ እጅና ቆዳ የጤና አዳምና የንብ ሰም ባህላዊ ቅባት።'],
  ['moringa-night-cream', 'Moringa Night Cream', 'የሞሪንጋ የማታ ክሬም', 'Addis Glow', 'skincare', 'treatments', 980, 1200, 27, true, 8, '50 ml', 'Moringa oleifera seed oil, Shea butter, Niacinamide, Ceramides', 'A rich overnight cream that restores the skin barrier with moringa and ceramides.', 'በሞሪንጋና በሴራሚድ የቆዳን መከላከያ የሚያድስ ገንቢ የማታ ክሬም።'],
  ['coffee-clay-mask', 'Coffee & Clay Detox Mask', 'የቡናና የሸክላ ማጽጃ ማስክ', 'Buna Beauty', 'skincare', 'masks', 560, 0, 50, true, 20, '100 g', 'Kaolin clay, Coffea arabica seed powder, Bentonite, Aloe vera', 'Harar coffee grounds and kaolin clay draw out city dust and excess oil.', 'የሐረር ቡናና የካኦሊን ሸክላ የከተማ አቧራንና ከመጠን በላይ ቅባትን ያወጣሉ።'],
  ['honey-oat-mask', 'White Honey & Oat Mask', 'የነጭ ማርና የአጃ ማስክ', 'Lalibela Pure', 'skincare', 'masks', 620, 720, 33, false, 45, '100 g', 'Tigray white honey, Colloidal oatmeal, Shea butter, Glycerin', 'Creamy mask with rare Tigray white honey and oats to comfort dry, irritated skin.', 'ብርቅዬ የትግራይ ነጭ ማርና አጃ ያሉበት ክሬማማ ማስክ፤ ደረቅና የተቆጣ ቆዳን ያረጋጋል።'],
  ['aloe-cucumber-sheet-mask', 'Aloe & Cucumber Sheet Mask', 'የእሬትና የኪያር ሉህ ማስክ', 'Tena Skin', 'skincare', 'masks', 150, 0, 120, false, 10, '1 sheet', 'Aloe barbadensis leaf juice, Cucumber extract, Hyaluronic acid', 'A single cotton sheet mask soaked in aloe and cucumber for a quick refresh.', 'ለፈጣን መታደስ በእሬትና በኪያር የረጠበ አንድ የጥጥ ሉህ ማስክ።'],
  ['rose-petal-mask', 'Rose Petal Sleeping Mask', 'የጽጌረዳ ቅጠል የእንቅልፍ ማስክ', 'Harar Essence', 'skincare', 'masks', 780, 0, 5, false, 75, '75 ml', 'Rosa damascena flower water, Squalane, Honey, Panthenol', 'An overnight gel-cream with rose water that wakes tired skin up soft and dewy.', 'በጽጌረዳ ውሃ የተዘጋጀ የማታ ጄል ክሬም፤ የደከመ ቆዳን ለስላሳና ብሩህ ያደርጋል።'],
  ['turmeric-ginger-mask', 'Turmeric & Ginger Glow Mask', 'የእርድና የዝንጅብል ማስክ', 'Habesha Naturals', 'skincare', 'masks', 590, 0, 38, false, 28, '100 g', 'Curcuma longa root powder, Zingiber officinale extract, Kaolin clay, Honey', 'Ethiopian turmeric and ginger with clay for a warm, radiant glow before a celebration.', 'የኢትዮጵያ እርድና ዝንጅብል ከሸክላ ጋር፤ ከበዓል በፊት ሞቅ ያለ ብርሃን ይሰጣሉ።'],
  ['gesho-charcoal-mask', 'Gesho & Charcoal Pore Mask', 'የጌሾና የከሰል ማስክ', 'Axum Organics', 'skincare', 'masks', 640, 0, 0, false, 110, '100 g', 'Rhamnus prinoides leaf extract, Activated charcoal, Bentonite, Aloe vera', 'Gesho leaf and charcoal deep-clean congested pores on oily skin.', 'የጌሾ ቅጠልና ከሰል በቅባታማ ቆዳ ላይ የተደፈኑ ቀዳዳዎችን በጥልቀት ያጸዳሉ።'],
  ['shea-lip-butter', 'Shea Lip Butter', 'የሺአ የከንፈር ቅባት', 'Habesha Naturals', 'makeup', 'lips', 180, 0, 110, false, 15, '10 g', 'Shea butter, Beeswax, Coconut oil, Vanilla extract', 'A soft, vanilla-scented lip butter that keeps lips smooth through windy afternoons.', 'የቫኒላ መዓዛ ያለው ለስላሳ የከንፈር ቅባት፤ በነፋሻማ ከሰዓት ከንፈርን ያለሰልሳል።'],
  ['coffee-matte-lipstick', 'Buna Matte Lipstick', 'ቡና ማት ሊፕስቲክ', 'Buna Beauty', 'makeup', 'lips', 420, 0, 44, true, 22, '3.5 g', 'Castor seed oil, Candelilla wax, Coffea arabica seed oil, Iron oxides', 'A deep coffee-brown matte lipstick that stays comfortable all day.', 'ቀኑን ሙሉ የማይከብድ ጥቁር የቡና ቀለም ያለው ማት ሊፕስቲክ።'],
  ['hibiscus-lip-tint', 'Hibiscus Lip & Cheek Tint', 'የሂቢስከስ የከንፈርና የጉንጭ ቀለም', 'Tana Botanicals', 'makeup', 'lips', 350, 420, 2, false, 35, '10 ml', 'Hibiscus sabdariffa flower extract, Glycerin, Aloe vera, Beet root extract', 'A sheer, buildable berry tint made from hibiscus flowers for lips and cheeks.', 'ከሂቢስከስ አበባ የተሰራ ቀላል ለከንፈርና ለጉንጭ የሚሆን ቀለም።'],
  ['berbere-satin-lipstick', 'Berbere Satin Lipstick', 'የበርበሬ ሳቲን ሊፕስቲክ', 'Addis Glow', 'makeup', 'lips', 450, 0, 26, false, 14, '3.5 g', 'Castor seed oil, Candelilla wax, Shea butter, Iron oxides', 'A creamy satin lipstick in warm spice-market shades, from berbere red to teff nude.', 'ከበርበሬ ቀይ እስከ ጤፍ ቀለም ባሉ ሞቃት ቀለማት የሚገኝ ክሬማማ የሳቲን ሊፕስቲክ።'],
  ['honey-lip-scrub', 'Honey Sugar Lip Scrub', 'የማርና የስኳር የከንፈር ማጽጃ', 'Lalibela Pure', 'makeup', 'lips', 210, 0, 70, false, 60, '15 g', 'Sucrose, Honey, Jojoba oil, Shea butter', 'Gently buffs away flakes before lipstick with honey and fine sugar.', 'ከሊፕስቲክ በፊት የደረቀ ቆዳን በማርና በደቃቅ ስኳር በቀስታ ያስወግዳል።'],
  ['rose-gloss-oil', 'Rose Lip Gloss Oil', 'የጽጌረዳ የከንፈር ዘይት', 'Harar Essence', 'makeup', 'lips', 380, 0, 0, false, 95, '6 ml', 'Jojoba oil, Rosa damascena flower oil, Vitamin E, Mica', 'A glossy, non-sticky lip oil with a soft rose shimmer.', 'የማይጣበቅ፣ ለስላሳ የጽጌረዳ ብልጭታ ያለው የከንፈር ዘይት።'],
  ['kohl-eyeliner', 'Natural Kohl Eyeliner', 'ተፈጥሯዊ ኩል የዓይን ኩል', 'Axum Organics', 'makeup', 'eyes', 290, 0, 65, true, 14, '1.2 g', 'Carbon black, Castor seed oil, Beeswax, Vitamin E', 'A soft traditional-style kohl pencil for a deep, smudgeable line.', 'ጥልቅና ሊደበዝዝ የሚችል መስመር የሚሰጥ ባህላዊ ዓይነት የኩል እርሳስ።'],
  ['castor-lash-serum', 'Castor Lash & Brow Serum', 'የጉሎ ዘይት የሽፋሽፍት ሴረም', 'Sheba Botanicals', 'makeup', 'eyes', 460, 560, 30, false, 48, '10 ml', 'Ricinus communis seed oil, Argan oil, Biotin, Vitamin E', 'Cold-pressed castor and argan oils condition lashes and brows overnight.', 'በቀዝቃዛ የተጨመቀ የጉሎና የአርጋን ዘይት ሽፋሽፍትንና ቅንድብን በማታ ይንከባከባሉ።'],
  ['coffee-mascara', 'Coffee Volume Mascara', 'የቡና ማስካራ', 'Buna Beauty', 'makeup', 'eyes', 520, 0, 1, false, 33, '8 ml', 'Beeswax, Carnauba wax, Coffea arabica seed oil, Iron oxides', 'A buildable brown-black mascara with coffee oil that lifts without clumps.', 'ሳይጓጉል የሚያነሳ የቡና ዘይት ያለው ቡናማ ጥቁር ማስካራ።'],
  ['earth-eyeshadow-palette', 'Simien Earth Eyeshadow Palette', 'የሰሜን ምድር የዓይን ቀለም', 'Simien Herbals', 'makeup', 'eyes', 1250, 1500, 18, true, 6, '9 x 1.5 g', 'Mica, Kaolin clay, Jojoba oil, Iron oxides', 'Nine warm earth shades inspired by the Simien mountains, from sand to deep umber.', 'ከአሸዋ እስከ ጥቁር ቡናማ ድረስ በሰሜን ተራሮች የተነሳሱ ዘጠኝ ሞቅ ያሉ ቀለሞች።'],
  ['aloe-eye-makeup-remover', 'Aloe Eye Makeup Remover', 'የእሬት የዓይን ሜካፕ ማስለቀቂያ', 'Tena Skin', 'makeup', 'eyes', 270, 0, 58, false, 80, '100 ml', 'Aloe barbadensis leaf juice, Coconut oil, Cucumber extract', 'A two-phase remover that lifts waterproof mascara without rubbing.', 'ውሃ የማያስገባ ማስካራን ሳያሹ የሚያስለቅቅ ባለሁለት ደረጃ ማስለቀቂያ።'],
  ['black-seed-shampoo', 'Black Seed Strengthening Shampoo', 'የጥቁር አዝሙድ ማጠንከሪያ ሻምፑ', 'Sheba Botanicals', 'haircare', 'shampoo', 480, 0, 75, true, 16, '250 ml', 'Nigella sativa seed oil, Decyl glucoside, Aloe vera, Panthenol', 'A gentle sulphate-free shampoo with black seed oil for stronger, shinier hair.', 'ለጠንካራና ለሚያብረቀርቅ ፀጉር የጥቁር አዝሙድ ዘይት ያለው ሰልፌት የሌለው ሻምፑ።'],
  ['besobila-scalp-shampoo', 'Besobila Scalp Shampoo', 'የበሶብላ የራስ ቆዳ ሻምፑ', 'Simien Herbals', 'haircare', 'shampoo', 440, 520, 40, false, 50, '250 ml', 'Ocimum basilicum extract, Peppermint oil, Decyl glucoside, Aloe vera', 'Ethiopian basil and peppermint refresh an itchy, dusty scalp.', 'የኢትዮጵያ በሶብላና ፔፐርሚንት የሚያሳክክና አቧራ ያለበትን የራስ ቆዳ ያድሳሉ።'],
  ['coconut-moringa-shampoo', 'Coconut & Moringa Moisture Shampoo', 'የኮኮናትና የሞሪንጋ ሻምፑ', 'Habesha Naturals', 'haircare', 'shampoo', 460, 0, 5, false, 42, '250 ml', 'Cocos nucifera oil, Moringa oleifera seed oil, Glycerin, Coco glucoside', 'A creamy cleanser for curly and coily hair that washes without stripping.', 'ለከርዳዳና ለጠቅላላ ፀጉር ሳያደርቅ የሚያጥብ ክሬማማ ሻምፑ።'],
  ['honey-repair-shampoo', 'Honey Repair Shampoo', 'የማር ማደሻ ሻምፑ', 'Lalibela Pure', 'haircare', 'shampoo', 510, 0, 36, false, 85, '250 ml', 'Honey, Hydrolyzed wheat protein, Argan oil, Coco glucoside', 'Honey and wheat protein help repair hair damaged by heat styling.', 'ማርና የስንዴ ፕሮቲን በሙቀት የተጎዳን ፀጉር ለማደስ ይረዳሉ።'],
  ['rosemary-growth-shampoo', 'Rosemary Growth Shampoo', 'የሮዝመሪ ማሳደጊያ ሻምፑ', 'Tana Botanicals', 'haircare', 'shampoo', 495, 0, 52, false, 26, '250 ml', 'Rosmarinus officinalis leaf oil, Caffeine, Biotin, Decyl glucoside', 'Rosemary and caffeine invigorate the scalp for fuller-looking hair.', 'ሮዝመሪና ካፌይን የራስ ቆዳን በማነቃቃት ፀጉርን ሙሉ ያስመስላሉ።'],
  ['aloe-baby-shampoo', 'Aloe Gentle Family Shampoo', 'የእሬት የቤተሰብ ሻምፑ', 'Tena Skin', 'haircare', 'shampoo', 380, 0, 88, false, 120, '300 ml', 'Aloe barbadensis leaf juice, Chamomile extract, Coco glucoside, Glycerin', 'A tear-free, fragrance-light shampoo the whole family can share.', 'ቤተሰቡ በሙሉ ሊጋራው የሚችል ዓይን የማያቃጥል ቀላል ሻምፑ።'],
  ['black-seed-hair-oil', 'Black Seed Hair Oil', 'የጥቁር አዝሙድ የፀጉር ዘይት', 'Sheba Botanicals', 'haircare', '', 560, 650, 46, false, 38, '100 ml', 'Nigella sativa seed oil, Castor seed oil, Rosemary oil, Vitamin E', 'A pre-wash oil treatment that nourishes the scalp and reduces breakage.', 'ከመታጠብ በፊት የሚቀባ የራስ ቆዳን የሚመግብና የፀጉር መሰበርን የሚቀንስ ዘይት።'],
  ['shea-hair-butter', 'Shea Curl Butter', 'የሺአ የፀጉር ቅቤ', 'Habesha Naturals', 'haircare', '', 530, 0, 0, false, 58, '200 g', 'Shea butter, Coconut oil, Aloe vera, Flaxseed extract', 'Defines and seals curls with shea and flaxseed, inspired by traditional butter hair care.', 'በባህላዊ የቅቤ ፀጉር እንክብካቤ ተነሳስቶ በሺአና በተልባ ከርልን ይገልጻል።'],
  ['etan-oud-perfume', 'Etan Oud Eau de Parfum', 'የዕጣን ኡድ ሽቶ', 'Axum Organics', 'fragrance', '', 3200, 3800, 12, true, 9, '50 ml', 'Alcohol denat., Boswellia carterii oil, Oud accord, Myrrh oil', 'Smoky frankincense and myrrh over warm oud: the scent of a coffee ceremony at dusk.', 'በሞቀ ኡድ ላይ የሚጨስ ዕጣንና ከርቤ፤ ምሽት ላይ የቡና ሥነ ሥርዓት መዓዛ።'],
  ['harar-coffee-perfume', 'Harar Coffee Eau de Parfum', 'የሐረር ቡና ሽቶ', 'Harar Essence', 'fragrance', '', 2850, 0, 20, false, 30, '50 ml', 'Alcohol denat., Coffee absolute, Vanilla, Cardamom oil', 'Roasted Harar coffee, cardamom and vanilla in a warm, gourmand perfume.', 'የተቆላ የሐረር ቡና፣ ኮረሪማና ቫኒላ ያሉበት ሞቅ ያለ ሽቶ።'],
  ['rose-myrrh-oil', 'Rose & Myrrh Perfume Oil', 'የጽጌረዳና የከርቤ ሽቶ ዘይት', 'Harar Essence', 'fragrance', '', 1650, 0, 4, false, 66, '10 ml', 'Jojoba oil, Rosa damascena flower oil, Commiphora myrrha oil', 'An alcohol-free roll-on oil of rose and myrrh that lasts on warm skin.', 'በሞቀ ቆዳ ላይ የሚቆይ አልኮል የሌለው የጽጌረዳና የከርቤ ሽቶ ዘይት።'],
  ['lemon-besobila-mist', 'Lemon & Besobila Body Mist', 'የሎሚና የበሶብላ የሰውነት ሽቶ', 'Simien Herbals', 'fragrance', '', 690, 0, 64, false, 20, '100 ml', 'Aqua, Citrus limon peel oil, Ocimum basilicum oil, Glycerin', 'A fresh, green splash of lemon and Ethiopian basil for hot afternoons.', 'ለሞቃት ከሰዓት የሎሚና የኢትዮጵያ በሶብላ ትኩስ መዓዛ።'],
  ['jasmine-night-perfume', 'Jasmine Night Eau de Parfum', 'የጃስሚን ምሽት ሽቶ', 'Addis Glow', 'fragrance', '', 2400, 2900, 15, false, 52, '50 ml', 'Alcohol denat., Jasminum officinale oil, Sandalwood oil, Musk', 'Night-blooming jasmine with creamy sandalwood for evenings out in Addis.', 'በአዲስ አበባ ለምሽት መውጫ ክሬማማ ሰንደል ያለበት የምሽት ጃስሚን ሽቶ።'],
  ['ginger-citrus-cologne', 'Ginger Citrus Cologne', 'የዝንጅብልና የብርቱካን ኮሎኝ', 'Tana Botanicals', 'fragrance', '', 1350, 0, 0, false, 105, '100 ml', 'Alcohol denat., Zingiber officinale oil, Citrus sinensis peel oil, Vetiver oil', 'A bright unisex cologne of fresh ginger, orange peel and vetiver.', 'ትኩስ ዝንጅብል፣ የብርቱካን ልጣጭና ቬቲቨር ያሉበት ለሁሉም የሚሆን ኮሎኝ።'],
  ['coffee-vanilla-solid-perfume', 'Coffee Vanilla Solid Perfume', 'የቡናና የቫኒላ ጠጣር ሽቶ', 'Buna Beauty', 'fragrance', '', 580, 0, 40, false, 12, '15 g', 'Beeswax, Jojoba oil, Coffee absolute, Vanilla extract', 'A pocket tin of solid perfume: coffee and vanilla you can touch up anywhere.', 'በኪስ የሚያዝ ጠጣር ሽቶ፤ በየትም ቦታ መቀባት የሚቻል ቡናና ቫኒላ።'],
  ['frankincense-toner', 'Frankincense Balancing Toner', 'የዕጣን ማመጣጠኛ ቶነር', 'Axum Organics', 'skincare', 'treatments', 470, 0, 57, false, 3, '150 ml', 'Boswellia papyrifera water, Witch hazel, Aloe vera, Glycerin', 'An alcohol-free toner with frankincense water to balance skin after cleansing.', 'ከታጠቡ በኋላ ቆዳን የሚያመጣጥን የዕጣን ውሃ ያለበት አልኮል የሌለው ቶነር።'],
];

function benefitsFor(category: SeedProduct['category']): string[] {
  return {
    skincare: ['Nourishes', 'Suits the dry season'],
    makeup: ['Long wearing', 'Kind to skin'],
    haircare: ['Strengthens', 'Adds shine'],
    fragrance: ['Long lasting', 'Natural essential oils'],
  }[category];
}

export const SEED_PRODUCTS: SeedProduct[] = ROWS.map(
  ([
    key,
    name,
    nameAm,
    brand,
    category,
    subCategory,
    price,
    originalPrice,
    stock,
    isFeatured,
    days,
    size,
    ingredients,
    description,
    descriptionAm,
  ]) => {
    const list = ingredients.split(',').map((i) => i.trim());
    return {
      key,
      name,
      nameAm,
      brand,
      description,
      descriptionAm,
      ingredients: list,
      ingredientsAm: inAmharic(list, INGREDIENT_AM),
      keyIngredients: list.slice(0, 2),
      benefits: benefitsFor(category),
      benefitsAm: inAmharic(benefitsFor(category), BENEFIT_AM),
      price,
      ...(originalPrice ? { originalPrice } : {}),
      stock,
      category,
      ...(subCategory ? { subCategory } : {}),
      size,
      skinTypes: category === 'skincare' ? ['all'] : [],
      isFeatured,
      daysSinceCreated: days,
    };
  },
);

/** A demo variant: its SKU is the product's key and `suffix`; prices in ETB (docs/decisions/0098-product-variants.md). */
export interface SeedVariant {
  suffix: string;
  options: Record<string, string>;
  price: number;
  originalPrice?: number;
  stock: number;
  swatch?: string;
}

const SIZE = { name: 'Size', nameAm: 'መጠን', kind: 'size' as const };
const SHADE = { name: 'Shade', nameAm: 'ቀለም', kind: 'shade' as const };

/**
 * The demo products with variants: sizes for two serums and two shampoos, shades for two lipsticks
 * (one shade sold out). The first variant keeps the product's own size and price, and the stocks add
 * up to the product's, so the catalogue's figures are the same as without variants.
 */
export const SEED_VARIANTS: Record<
  string,
  {
    options: { name: string; nameAm: string; kind: 'size' | 'shade'; values: string[] }[];
    variants: SeedVariant[];
  }
> = {
  'moringa-glow-serum': {
    options: [{ ...SIZE, values: ['30 ml', '50 ml', '100 ml'] }],
    variants: [
      { suffix: '30ml', options: { Size: '30 ml' }, price: 890, originalPrice: 1050, stock: 30 },
      { suffix: '50ml', options: { Size: '50 ml' }, price: 1350, stock: 12 },
      { suffix: '100ml', options: { Size: '100 ml' }, price: 2450, stock: 6 },
    ],
  },
  'frankincense-renewal-serum': {
    options: [{ ...SIZE, values: ['30 ml', '50 ml'] }],
    variants: [
      { suffix: '30ml', options: { Size: '30 ml' }, price: 1450, stock: 14 },
      { suffix: '50ml', options: { Size: '50 ml' }, price: 2200, stock: 8 },
    ],
  },
  'black-seed-shampoo': {
    options: [{ ...SIZE, values: ['250 ml', '500 ml'] }],
    variants: [
      { suffix: '250ml', options: { Size: '250 ml' }, price: 480, stock: 50 },
      { suffix: '500ml', options: { Size: '500 ml' }, price: 850, stock: 25 },
    ],
  },
  'honey-repair-shampoo': {
    options: [{ ...SIZE, values: ['250 ml', '500 ml'] }],
    variants: [
      { suffix: '250ml', options: { Size: '250 ml' }, price: 510, stock: 24 },
      { suffix: '500ml', options: { Size: '500 ml' }, price: 900, stock: 12 },
    ],
  },
  'coffee-matte-lipstick': {
    options: [{ ...SHADE, values: ['Buna Brown', 'Teff Nude', 'Berbere Red', 'Kolo Plum'] }],
    variants: [
      { suffix: 'buna', options: { Shade: 'Buna Brown' }, price: 420, stock: 18, swatch: '#6b3e26' },
      { suffix: 'teff', options: { Shade: 'Teff Nude' }, price: 420, stock: 14, swatch: '#c19a6b' },
      { suffix: 'berbere', options: { Shade: 'Berbere Red' }, price: 420, stock: 12, swatch: '#a4243b' },
      // sold out: the picker marks it
      { suffix: 'kolo', options: { Shade: 'Kolo Plum' }, price: 420, stock: 0, swatch: '#5e2a3a' },
    ],
  },
  'berbere-satin-lipstick': {
    options: [{ ...SHADE, values: ['Berbere Red', 'Mitmita Coral', 'Teff Nude'] }],
    variants: [
      { suffix: 'berbere', options: { Shade: 'Berbere Red' }, price: 450, stock: 10, swatch: '#b3282d' },
      { suffix: 'mitmita', options: { Shade: 'Mitmita Coral' }, price: 450, stock: 8, swatch: '#e0674f' },
      { suffix: 'teff', options: { Shade: 'Teff Nude' }, price: 450, stock: 8, swatch: '#c9a27e' },
    ],
  },
};
