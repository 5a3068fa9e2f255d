/*
 * corpus.c: the benchmark's file names, generated from word lists with a
 * fixed seed, so that every run and every machine times the same names.
 *
 * The corpora (bench/README.md describes them):
 *   ascii   names as they come from cameras, office work and source trees
 *           ("IMG_2041.JPG", "report-final (2).docx", "node_modules"),
 *           5 to 40 bytes;
 *   latin   French, German, Spanish, Portuguese, Polish, Czech, Nordic
 *           and Vietnamese words, NFC, one name in five NFD (as files
 *           copied from macOS are);
 *   greek-cyrillic  Greek, Russian, Ukrainian, Serbian, Bulgarian words;
 *   cjk     Chinese, Japanese (kana with voicing marks, which decompose)
 *           and Korean (Hangul, which decomposes algorithmically);
 *   emoji   emoji with skin tones, flags, keycaps, ZWJ sequences and
 *           variation selectors (both ignorable), among ASCII words;
 *   mix     80% ascii, 20% drawn evenly from the four others.
 * Names other than ascii keep an ASCII extension, date or counter, as
 * real ones do. utf8proc provides the case mappings for title case and
 * for the case variants, and NFD; e2fold provides the folded form.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "unicode.h"
#include "bench.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define PICK(r, a) ((a)[rng_below((r), COUNT(a))])

/* splitmix64: small, fast, and the same sequence everywhere. */
struct rng {
	uint64_t state;
};

static uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static unsigned int rng_below(struct rng *r, unsigned int n)
{
	return (unsigned int)(rng_next(r) % n);
}

/* A name being built; too long a name is marked and later rejected. */
struct namebuf {
	char b[BENCH_NAME_MAX + 1];
	size_t len;
	int overflow;
};

static void nb_add(struct namebuf *nb, const char *s)
{
	size_t n = strlen(s);

	if (nb->len + n > BENCH_NAME_MAX) {
		nb->overflow = 1;
		return;
	}
	memcpy(nb->b + nb->len, s, n + 1);
	nb->len += n;
}

static void nb_addf(struct namebuf *nb, const char *fmt, ...)
{
	char tmp[BENCH_NAME_MAX + 1];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	nb_add(nb, tmp);
}

enum case_style {
	CASE_ASIS,
	CASE_TITLE,		/* first letter upper case */
	CASE_UPPER,
	CASE_SWAP,		/* every letter's case swapped */
};

static utf8proc_int32_t case_map(utf8proc_int32_t c, enum case_style cs,
				 int first)
{
	utf8proc_int32_t l;

	switch (cs) {
	case CASE_TITLE:
		return first ? utf8proc_totitle(c) : c;
	case CASE_UPPER:
		return utf8proc_toupper(c);
	case CASE_SWAP:
		l = utf8proc_tolower(c);
		return l != c ? l : utf8proc_toupper(c);
	default:
		return c;
	}
}

/* Append the valid UTF-8 string s in case style cs. */
static void nb_add_cased(struct namebuf *nb, const char *s,
			 enum case_style cs)
{
	const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s;
	char tmp[BENCH_NAME_MAX * 2 + 1];
	size_t n = 0;
	int first = 1;

	while (*p && n + 4 < sizeof(tmp)) {
		utf8proc_int32_t c;
		utf8proc_ssize_t k = utf8proc_iterate(p, -1, &c);

		if (k <= 0)
			abort();	/* the word lists are valid UTF-8 */
		n += utf8proc_encode_char(case_map(c, cs, first),
					  (utf8proc_uint8_t *)tmp + n);
		first = 0;
		p += k;
	}
	tmp[n] = '\0';
	nb_add(nb, tmp);
}

/* ------------------------------------------------------------------ */
/* ascii                                                               */

static const char *const doc_words[] = {
	"report", "final", "draft", "budget", "notes", "invoice", "meeting",
	"minutes", "backup", "photo", "scan", "letter", "resume", "project",
	"summary", "data", "results", "analysis", "presentation", "contract",
	"proposal", "schedule", "agenda", "receipt", "statement", "plan",
	"review", "thesis", "chapter", "slides", "export", "archive",
	"holiday", "family", "wedding", "birthday", "trip", "team", "client",
	"quarterly", "annual", "sales", "tax", "bank", "insurance", "lease",
	"manual", "guide", "specs", "design", "mockup", "logo", "poster",
};

static const char *const doc_exts[] = {
	".pdf", ".docx", ".doc", ".xlsx", ".pptx", ".txt", ".odt", ".csv",
	".md", ".rtf", ".zip", ".png", ".jpg", ".JPG", ".mp3", ".mp4", ".mov",
	".wav", ".html", ".log", ".tar.gz", ".key", ".json", ".xml", ".PDF",
};

static const char *const copy_suffixes[] = {
	" (2)", " (1)", " copy", "_v2", "_v3", "-final", "_final", "-old",
	"_backup", "-draft", "_2023", "-2021-03-14", "_signed", " - Copy",
};

static const char *const code_words[] = {
	"main", "utils", "helper", "parser", "lexer", "server", "client",
	"config", "index", "test", "setup", "build", "model", "view",
	"controller", "router", "handler", "types", "common", "core", "api",
	"auth", "db", "cache", "logger", "errors", "io", "net", "http",
	"json", "string", "vector", "map", "list", "tree", "queue", "worker",
	"task", "job", "event", "app", "cli", "init", "module", "plugin",
	"driver",
};

static const char *const code_exts[] = {
	".c", ".h", ".cc", ".cpp", ".hpp", ".py", ".js", ".ts", ".tsx",
	".go", ".rs", ".java", ".rb", ".php", ".sh", ".o", ".so", ".a",
	".json", ".yaml", ".toml", ".lock", ".min.js", ".css", ".scss",
	".vue", ".kt", ".swift", ".pyc", ".d.ts",
};

static const char *const well_known[] = {
	"node_modules", "Makefile", "README.md", "LICENSE", "CMakeLists.txt",
	"package.json", "package-lock.json", ".gitignore", ".gitattributes",
	"__pycache__", "__init__.py", "Dockerfile", "docker-compose.yml",
	"requirements.txt", "setup.py", "Cargo.toml", "Cargo.lock", "go.mod",
	"go.sum", ".editorconfig", "tsconfig.json", "webpack.config.js",
	".eslintrc.json", "Downloads", "Documents", "Desktop", "Pictures",
	"Music", "Videos", "Public", "Templates", "build", "dist", "vendor",
	"target", "include", "examples", "scripts", "assets", "images",
	"fonts", "static", "Thumbs.db", ".DS_Store", "desktop.ini",
	"CHANGELOG.md", "CONTRIBUTING.md", ".bash_history", ".profile",
};

static void camera_name(struct rng *r, struct namebuf *nb)
{
	unsigned int y = 2010 + rng_below(r, 15), mo = 1 + rng_below(r, 12);
	unsigned int d = 1 + rng_below(r, 28), h = rng_below(r, 24);
	unsigned int mi = rng_below(r, 60), s = rng_below(r, 60);
	unsigned int n = rng_below(r, 10000);

	switch (rng_below(r, 8)) {
	case 0:
		nb_addf(nb, "IMG_%04u.JPG", n);
		break;
	case 1:
		nb_addf(nb, "IMG_%04u.HEIC", n);
		break;
	case 2:
		nb_addf(nb, "DSC%05u.JPG", n * 7);
		break;
	case 3:
		nb_addf(nb, "DSCF%04u.RAF", n);
		break;
	case 4:
		nb_addf(nb, "PXL_%04u%02u%02u_%02u%02u%02u%03u.jpg", y, mo, d,
			h, mi, s, rng_below(r, 1000));
		break;
	case 5:
		nb_addf(nb, "VID_%04u%02u%02u_%02u%02u%02u.mp4", y, mo, d, h,
			mi, s);
		break;
	case 6:
		nb_addf(nb, "Screenshot %04u-%02u-%02u at %02u.%02u.%02u.png",
			y, mo, d, h, mi, s);
		break;
	default:
		nb_addf(nb, "IMG_%04u (%u).JPG", n, 1 + rng_below(r, 3));
		break;
	}
}

static void doc_name(struct rng *r, struct namebuf *nb)
{
	unsigned int words = 1 + rng_below(r, 3), style = rng_below(r, 10);
	static const char *const seps[] = { " ", "-", "_", "" };
	const char *sep = PICK(r, seps);
	unsigned int i;

	if (!*sep && style < 5)
		sep = "_";
	for (i = 0; i < words; i++) {
		enum case_style cs = style < 5 ? CASE_ASIS :
			style < 8 ? CASE_TITLE : style < 9 ? CASE_UPPER :
			i ? CASE_TITLE : CASE_ASIS;	/* camelCase */

		if (i)
			nb_add(nb, style == 9 ? "" : sep);
		nb_add_cased(nb, PICK(r, doc_words), cs);
	}
	if (rng_below(r, 10) < 3)
		nb_add(nb, PICK(r, copy_suffixes));
	nb_add(nb, PICK(r, doc_exts));
}

static void code_name(struct rng *r, struct namebuf *nb)
{
	unsigned int style = rng_below(r, 4);

	if (rng_below(r, 10) == 0)
		nb_add(nb, "test_");
	nb_add(nb, PICK(r, code_words));
	if (rng_below(r, 2)) {
		static const char *const seps[] = { "_", "-", "." };

		if (style == 3) {
			nb_add_cased(nb, PICK(r, code_words), CASE_TITLE);
		} else {
			nb_add(nb, seps[style]);
			nb_add(nb, PICK(r, code_words));
		}
	}
	nb_add(nb, PICK(r, code_exts));
}

static void ascii_name(struct rng *r, struct namebuf *nb)
{
	unsigned int k = rng_below(r, 100);

	if (k < 25)
		camera_name(r, nb);
	else if (k < 60)
		doc_name(r, nb);
	else if (k < 85)
		code_name(r, nb);
	else
		nb_add(nb, PICK(r, well_known));
}

/* ------------------------------------------------------------------ */
/* Words of other scripts, joined as people name files.                */

struct language {
	const char *const *words;
	size_t count;
	const char *const *seps;	/* between words */
	size_t nseps;
	unsigned int max_words;
};

#define LANG(w, s, m) { (w), COUNT(w), (s), COUNT(s), (m) }

static const char *const spaced[] = { " ", " ", "_", "-", " \u2013 " };
static const char *const joined[] = { "", "", "_", " ", "-" };
static const char *const syllables[] = { " ", " ", " ", "_" };

static const char *const french[] = {
	"café", "résumé", "été", "élève", "français", "garçon", "crème",
	"brûlée", "hôpital", "forêt", "Noël", "naïve", "déjà", "théâtre",
	"cœur", "œuvre", "Molière", "Élodie", "Hélène", "Jérôme", "façade",
	"fenêtre", "château", "réunion", "dossier", "année", "février",
	"août", "décembre", "présentation", "bibliothèque", "énergie",
	"qualité", "sécurité", "général", "numéro", "reçu", "relevé",
};

static const char *const german[] = {
	"Straße", "Größe", "Übersicht", "Änderungen", "Öffnungszeiten",
	"Bücher", "Prüfung", "Gebühren", "schön", "Müller", "Fußball",
	"Kündigung", "Bestätigung", "Lösung", "Rechnungsübersicht",
	"Überweisung", "Führerschein", "Geschäftsbericht", "Grüße",
	"Urlaubsfotos", "März", "Bürgeramt", "Steuererklärung", "Gemüse",
	"Käse", "Tschüss", "Jäger", "Zeugnis", "Lebenslauf", "Düsseldorf",
};

static const char *const iberian[] = {
	"niño", "año", "canción", "información", "presentación", "São",
	"Paulo", "coração", "ação", "José", "María", "Ibáñez", "España",
	"mañana", "pequeño", "fotografía", "música", "vídeo",
	"documentación", "reunión", "Bogotá", "Málaga", "João",
	"Conceição", "avó", "irmã", "lição", "cumpleaños", "vacaciones",
};

static const char *const northern[] = {
	"Ærøskøbing", "smørrebrød", "Åland", "Łódź", "Kraków", "zażółć",
	"gęślą", "jaźń", "Dvořák", "příliš", "žluťoučký", "kůň", "Škoda",
	"Gdańsk", "Wrocław", "święta", "zdjęcia", "Plzeň", "Göteborg",
	"Malmö", "Tromsø", "Reykjavík", "Þingvellir", "Ísland", "fjörður",
	"Øresund", "Čechy", "faktura", "účet", "dovolená",
};

static const char *const vietnamese[] = {
	"Tiếng", "Việt", "Hà", "Nội", "Thành", "phố", "Hồ", "Chí", "Minh",
	"phở", "Nguyễn", "Trần", "Lê", "Phạm", "Đà", "Nẵng", "ảnh", "tài",
	"liệu", "nhạc", "cộng", "hòa", "gia", "đình", "kỷ", "niệm", "học",
	"sinh", "báo", "cáo", "cưới", "Huế", "Hội", "An", "Sài", "Gòn",
	"người", "đẹp", "hợp", "đồng",
};

static const char *const greek[] = {
	"Φωτογραφίες", "Έγγραφα", "Μουσική", "Λήψεις", "Επιφάνεια",
	"εργασίας", "αναφορά", "τελικό", "Αθήνα", "Θεσσαλονίκη",
	"διακοπές", "σημειώσεις", "λογαριασμός", "Ελλάδα", "ψυχή",
	"καλοκαίρι", "οικογένεια", "γενέθλια", "συνάντηση", "παρουσίαση",
	"σχέδιο", "Πάσχα", "Κρήτη", "τιμολόγιο", "βιογραφικό",
};

static const char *const cyrillic[] = {
	"Документы", "Фотографии", "Загрузки", "Рабочий", "стол", "отчёт",
	"итоговый", "Москва", "Санкт-Петербург", "счёт", "договор",
	"презентация", "Музыка", "Видео", "отпуск", "семья", "день",
	"рождения", "новый", "год", "ёлка", "проект", "бюджет", "резюме",
	"заявление", "объявление", "подъезд", "йогурт", "Завантаження",
	"Київ", "їжак", "ґанок", "Зображення", "Львів", "звіт", "рахунок",
	"Београд", "љубав", "њива", "ђак", "џемпер", "ћерка", "София",
	"Пловдив", "снимки",
};

static const char *const chinese[] = {
	"文档", "照片", "下载", "桌面", "报告", "最终版", "会议记录",
	"项目计划", "财务报表", "北京", "上海", "年度总结", "旅行", "家庭",
	"婚礼", "合同", "发票", "简历", "备份", "新建文件夹", "截图", "视频",
	"音乐", "報告書", "資料", "圖片", "臺北", "香港", "會議", "檔案",
};

static const char *const japanese[] = {
	"写真", "ダウンロード", "デスクトップ", "ドキュメント", "議事録",
	"見積書", "請求書", "東京", "旅行", "ぎんこう", "がっこう",
	"新しいフォルダー", "スクリーンショット", "提案書", "プレゼン資料",
	"ビデオ", "ミュージック", "大阪", "京都", "まとめ", "バックアップ",
	"ごみ箱", "家族写真", "データ",
};

static const char *const korean[] = {
	"사진", "문서", "다운로드", "바탕화면", "보고서", "최종", "회의록",
	"서울", "여행", "음악", "동영상", "새 폴더", "가족", "결혼식",
	"계약서", "견적서", "이력서", "부산", "제주도", "프로젝트",
	"발표자료", "휴가", "생일",
};

static const struct language latin_langs[] = {
	LANG(french, spaced, 3), LANG(german, spaced, 2),
	LANG(iberian, spaced, 3), LANG(northern, spaced, 2),
	LANG(vietnamese, syllables, 4),
};

static const struct language greek_cyrillic_langs[] = {
	LANG(greek, spaced, 3), LANG(cyrillic, spaced, 3),
};

static const struct language cjk_langs[] = {
	LANG(chinese, joined, 3), LANG(japanese, joined, 3),
	LANG(korean, spaced, 3),
};

static const char *const media_exts[] = {
	".jpg", ".JPG", ".png", ".pdf", ".docx", ".xlsx", ".pptx", ".txt",
	".mp3", ".mp4", ".zip", ".odt", ".heic", ".hwp", "", "",
};

/* ASCII the names keep: a date, a counter or a copy number. */
static void add_ascii_tail(struct rng *r, struct namebuf *nb)
{
	switch (rng_below(r, 6)) {
	case 0:
		nb_addf(nb, " %u", 2005 + rng_below(r, 20));
		break;
	case 1:
		nb_addf(nb, "_%04u-%02u-%02u", 2005 + rng_below(r, 20),
			1 + rng_below(r, 12), 1 + rng_below(r, 28));
		break;
	case 2:
		nb_addf(nb, " (%u)", 1 + rng_below(r, 4));
		break;
	case 3:
		nb_addf(nb, "_%03u", rng_below(r, 1000));
		break;
	default:
		break;
	}
	nb_add(nb, PICK(r, media_exts));
}

static void words_name(struct rng *r, struct namebuf *nb,
		       const struct language *langs, size_t nlangs)
{
	const struct language *l = &langs[rng_below(r, nlangs)];
	unsigned int words = 1 + rng_below(r, l->max_words), i;
	const char *sep = l->seps[rng_below(r, l->nseps)];
	unsigned int style = rng_below(r, 10);
	enum case_style cs = style < 6 ? CASE_ASIS :
		style < 9 ? CASE_TITLE : CASE_UPPER;

	for (i = 0; i < words; i++) {
		if (i)
			nb_add(nb, sep);
		nb_add_cased(nb, l->words[rng_below(r, l->count)], cs);
	}
	add_ascii_tail(r, nb);
}

/* One Latin name in five is NFD, as HFS+ and many macOS tools write. */
static void latin_name(struct rng *r, struct namebuf *nb)
{
	utf8proc_uint8_t *nfd;

	words_name(r, nb, latin_langs, COUNT(latin_langs));
	if (rng_below(r, 5) || nb->overflow)
		return;
	nfd = utf8proc_NFD((const utf8proc_uint8_t *)nb->b);
	if (!nfd)
		abort();
	nb->len = 0;
	nb_add(nb, (const char *)nfd);
	free(nfd);
}

static void greek_cyrillic_name(struct rng *r, struct namebuf *nb)
{
	words_name(r, nb, greek_cyrillic_langs, COUNT(greek_cyrillic_langs));
}

static void cjk_name(struct rng *r, struct namebuf *nb)
{
	words_name(r, nb, cjk_langs, COUNT(cjk_langs));
}

/* ------------------------------------------------------------------ */
/* emoji                                                               */

/* ZWJ is U+200D, VS16 U+FE0F, skin tones U+1F3FB..U+1F3FF. */
static const char *const emoji[] = {
	"\U0001F600", "\U0001F602", "\U0001F389", "\u2764\uFE0F",
	"\U0001F44D", "\U0001F44D\U0001F3FD",
	"\U0001F468\u200D\U0001F469\u200D\U0001F467\u200D\U0001F466",
	"\U0001F3F3\uFE0F\u200D\U0001F308", "\U0001F9D1\u200D\U0001F4BB",
	"\U0001F469\U0001F3FB\u200D\U0001F52C", "\U0001F1EB\U0001F1F7",
	"\U0001F1EF\U0001F1F5", "\U0001F1FA\U0001F1F8", "\u2600\uFE0F",
	"\u2708\uFE0F", "\U0001F30D", "\U0001F4F8", "\U0001F382",
	"\U0001F3D6\uFE0F", "\U0001F436", "1\uFE0F\u20E3", "\u00A9\uFE0F",
	"\u267B\uFE0F", "\u2B50", "\U0001F525", "\U0001F4AF", "\U0001F3B5",
	"\U0001F4DD", "\U0001F680",
	"\U0001F469\u200D\u2764\uFE0F\u200D\U0001F468",
	"\U0001F937\u200D\u2642\uFE0F",
	"\U0001F3C3\U0001F3FE\u200D\u2640\uFE0F", "\u2705", "\u26A0\uFE0F",
	"\U0001F355", "\U0001F384",
};

static const char *const emoji_words[] = {
	"party", "vacation", "Family", "birthday", "trip", "beach", "love",
	"pets", "Summer", "christmas", "wedding", "friends", "food", "notes",
	"todo", "ideas", "music", "playlist", "photos", "memories", "goals",
	"Paris", "Tokyo", "road trip", "new year",
};

static void emoji_name(struct rng *r, struct namebuf *nb)
{
	unsigned int i, n = 1 + rng_below(r, 3);

	switch (rng_below(r, 4)) {
	case 0:
		nb_add(nb, PICK(r, emoji));
		nb_add(nb, " ");
		nb_add(nb, PICK(r, emoji_words));
		nb_add(nb, PICK(r, media_exts));
		break;
	case 1:
		nb_add(nb, PICK(r, emoji_words));
		nb_add(nb, " ");
		for (i = 0; i < n; i++)
			nb_add(nb, PICK(r, emoji));
		nb_add(nb, PICK(r, media_exts));
		break;
	case 2:
		nb_add(nb, PICK(r, emoji_words));
		nb_add(nb, " ");
		nb_add(nb, PICK(r, emoji));
		add_ascii_tail(r, nb);
		break;
	default:
		for (i = 0; i < n + 1; i++)
			nb_add(nb, PICK(r, emoji));
		break;
	}
}

/* ------------------------------------------------------------------ */

static void mix_name(struct rng *r, struct namebuf *nb)
{
	static void (*const others[])(struct rng *, struct namebuf *) = {
		latin_name, greek_cyrillic_name, cjk_name, emoji_name,
	};

	if (rng_below(r, 100) < 80)
		ascii_name(r, nb);
	else
		PICK(r, others)(r, nb);
}

static const struct {
	const char *name;
	void (*make)(struct rng *r, struct namebuf *nb);
	size_t min_len, max_len;
} generators[CORPUS_MAX] = {
	[CORPUS_ASCII] = { "ascii", ascii_name, 5, 40 },
	[CORPUS_LATIN] = { "latin", latin_name, 5, BENCH_NAME_MAX },
	[CORPUS_GREEK_CYRILLIC] = { "greek-cyrillic", greek_cyrillic_name,
				    5, BENCH_NAME_MAX },
	[CORPUS_CJK] = { "cjk", cjk_name, 5, BENCH_NAME_MAX },
	[CORPUS_EMOJI] = { "emoji", emoji_name, 5, BENCH_NAME_MAX },
	[CORPUS_MIX] = { "mix", mix_name, 5, BENCH_NAME_MAX },
};

const char *bench_corpus_name(enum bench_corpus_id id)
{
	return generators[id].name;
}

static unsigned char *dup_bytes(unsigned char **p, const void *s, size_t n)
{
	unsigned char *r = *p;

	memcpy(r, s, n);
	r[n] = '\0';
	*p += n + 1;
	return r;
}

/* Fill n from the name s: its variant, copy and e2fold's folded form. */
static int name_init(struct bench_name *n, const struct unicode_map *um,
		     const char *s, size_t len)
{
	struct namebuf var = { .len = 0 };
	unsigned char folded[BENCH_OUT_MAX], *p;
	struct qstr q = { (const unsigned char *)s, (unsigned int)len };
	int flen;

	nb_add_cased(&var, s, CASE_SWAP);
	flen = utf8_casefold(um, &q, folded, sizeof(folded));
	if (var.overflow || flen < 0) {
		fprintf(stderr, "bench: cannot prepare the name \"%s\"\n", s);
		return -1;
	}
	p = malloc(2 * (len + 1) + var.len + 1 + flen + 1);
	if (!p)
		return -1;
	n->s = dup_bytes(&p, s, len);
	n->len = len;
	n->copy = dup_bytes(&p, s, len);
	n->variant = dup_bytes(&p, var.b, var.len);
	n->variant_len = var.len;
	n->folded = dup_bytes(&p, folded, flen);
	n->folded_len = flen;
	return 0;
}

int bench_corpus_make(enum bench_corpus_id id, size_t count, uint64_t seed,
		      struct bench_corpus *ret_corpus)
{
	struct rng r = { seed ^ ((uint64_t)id << 56) };
	struct bench_corpus c = { .id = id, .name = generators[id].name };
	struct unicode_map *um = utf8_load("12.1.0");

	if (!um)
		return -1;
	c.names = calloc(count, sizeof(*c.names));
	if (!c.names) {
		utf8_unload(um);
		return -1;
	}
	while (c.count < count) {
		struct namebuf nb = { .len = 0 };

		generators[id].make(&r, &nb);
		if (nb.overflow || nb.len < generators[id].min_len ||
		    nb.len > generators[id].max_len)
			continue;
		if (name_init(&c.names[c.count], um, nb.b, nb.len)) {
			utf8_unload(um);
			bench_corpus_free(&c);
			return -1;
		}
		c.bytes += nb.len;
		c.variant_bytes += c.names[c.count].variant_len;
		c.count++;
	}
	utf8_unload(um);
	*ret_corpus = c;
	return 0;
}

void bench_corpus_free(struct bench_corpus *corpus)
{
	size_t i;

	for (i = 0; i < corpus->count; i++)
		free((void *)corpus->names[i].s);
	free(corpus->names);
	corpus->names = NULL;
	corpus->count = 0;
}
