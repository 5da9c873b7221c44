import type { Article } from "@/features/content/api/types";

// Shown by the article page when the API cannot be reached (network error or
// 5xx), so a reader still gets something worth reading instead of an error.

const PARAGRAPHS = [
  "On a grey Friday morning, hundreds of students left their classrooms and gathered outside city hall. They carried hand-painted signs, megaphones borrowed from the drama club and a list of demands they had spent weeks drafting together. None of them were old enough to vote, yet every one of them had something to say about the world they will inherit.",
  "Youth climate activism has grown from a handful of solitary school strikes into one of the largest coordinated movements of our time. Young people have organised marches on every continent, testified before parliaments and taken governments to court over their failure to cut emissions. What began as frustration has become strategy.",
  "What makes this generation of activists different is not only their numbers but their methods. They combine street protest with careful research, turning scientific reports into short videos and infographics that their classmates actually share. They build coalitions across borders in group chats and video calls, learning from farmers in the Sahel, island communities in the Pacific and Indigenous land defenders in the Amazon.",
  "Climate justice sits at the heart of their message. The people who did least to cause the crisis, from low-income neighbourhoods to entire low-lying nations, often suffer its worst effects first. Young activists insist that any serious climate policy must also be a fair one, protecting workers in polluting industries and funding adaptation where it is needed most.",
  "Critics sometimes dismiss student protesters as idealistic or uninformed. The record says otherwise. Youth-led campaigns have pushed schools and universities to divest from fossil fuels, persuaded city councils to declare climate emergencies and helped put long-term emissions targets into law. Courts in several countries have agreed with young plaintiffs that governments owe a duty of care to future generations.",
  "Activism also takes a personal toll. Many young organisers describe climate anxiety, burnout and the strain of balancing exams with campaigns. The most resilient groups share the work, celebrate small victories and treat looking after one another as part of the movement rather than a distraction from it.",
  "You do not need a megaphone to take part. Starting a conversation in class, writing to a local representative, joining a community garden or researching how your own school uses energy are all ways to turn concern into action. Every one of those steps helps shift what adults consider possible.",
  "The students outside city hall did not leave with every demand met. They did leave with a meeting scheduled with the mayor, a local newspaper story and dozens of new members. That is how movements grow: one walkout, one article, one conversation at a time.",
];

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const words = PARAGRAPHS.join(" ").split(/\s+/).length;
const PUBLISHED = "2026-01-15T14:00:00Z";
const SUBTITLE =
  "From school strikes to courtrooms, a generation that cannot yet vote is reshaping the climate debate.";

export const SAMPLE_ARTICLE: Article = {
  id: "sample-youth-climate-activism",
  slug: "rising-tides-rising-voices",
  title:
    "Rising Tides, Rising Voices: How Young People Are Redefining Climate Action",
  subtitle: SUBTITLE,
  excerpt: `${PARAGRAPHS[0]?.slice(0, 147) ?? ""}...`,
  category: "Climate Justice",
  featured: false,
  author_name: "The Agora Editorial Team",
  created_at: PUBLISHED,
  updated_at: PUBLISHED,
  read_time: `${Math.ceil(words / 230)} min`,
  content: PARAGRAPHS.join("\n\n"),
  content_html: PARAGRAPHS.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n"),
  description: SUBTITLE,
};
