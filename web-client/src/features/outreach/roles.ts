export interface ContributorRole {
  id: string;
  name: string;
  description: string;
  requirements: readonly string[];
  skills: readonly string[];
}

/** The eight contributor roles; ids are those the application form sends. */
export const ROLES: readonly ContributorRole[] = [
  {
    id: "editorial-writer",
    name: "Editorial Writer",
    description:
      "Research and write articles on international affairs, human rights, climate and more, from news explainers to opinion pieces.",
    requirements: [
      "Two writing samples",
      "At least one article per month",
      "Openness to editorial feedback",
    ],
    skills: ["Clear writing", "Research", "Argumentation"],
  },
  {
    id: "copy-editor",
    name: "Copy Editor",
    description:
      "Polish articles before publication: grammar, clarity, style and consistency with our house guidelines.",
    requirements: [
      "Excellent written English",
      "Attention to detail",
      "3-4 hours per week",
    ],
    skills: ["Proofreading", "Style guides", "Constructive feedback"],
  },
  {
    id: "research-assistant",
    name: "Research Assistant",
    description:
      "Fact-check claims, gather sources and prepare background briefs that help writers get the story right.",
    requirements: [
      "Curiosity and patience",
      "Comfort reading reports and data",
      "Optional research samples",
    ],
    skills: ["Fact-checking", "Source evaluation", "Note-taking"],
  },
  {
    id: "educational-pack-developer",
    name: "Educational Pack Developer",
    description:
      "Turn complex political topics into classroom materials: explanations, glossaries and activities for ages 13-18.",
    requirements: [
      "Writing samples",
      "Interest in teaching or tutoring",
      "Reliability with deadlines",
    ],
    skills: [
      "Explaining simply",
      "Lesson design",
      "Bilingual writing (a plus)",
    ],
  },
  {
    id: "communications-outreach-director",
    name: "Communications & Outreach Director",
    description:
      "Lead our social media and partnerships, grow our community and bring new schools and writers on board.",
    requirements: [
      "Leadership experience",
      "5+ hours per week",
      "Strong communication",
    ],
    skills: ["Strategy", "Partnerships", "Team coordination"],
  },
  {
    id: "communications-assistant",
    name: "Communications Assistant",
    description:
      "Help share our articles online: write captions, schedule posts and answer messages from our community.",
    requirements: [
      "Familiarity with social media",
      "2-3 hours per week",
      "Friendly, clear tone",
    ],
    skills: ["Copywriting", "Scheduling", "Community management"],
  },
  {
    id: "design-director",
    name: "Design Director",
    description:
      "Set the visual direction of the site, the magazine and the packs, and mentor our team of designers.",
    requirements: [
      "A portfolio",
      "Experience leading creative projects",
      "5+ hours per week",
    ],
    skills: ["Art direction", "Layout and typography", "Mentoring"],
  },
  {
    id: "graphic-designer",
    name: "Graphic Designer",
    description:
      "Create cover images, infographics, maps and social graphics that make our stories easy to understand.",
    requirements: [
      "A portfolio",
      "Access to a design tool",
      "3-4 hours per week",
    ],
    skills: ["Illustration", "Infographics", "Visual hierarchy"],
  },
];
