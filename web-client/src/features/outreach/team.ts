export interface TeamMember {
  name: string;
  role: string;
  location: string;
  bio: string;
}

export const TEAM: readonly TeamMember[] = [
  {
    name: "Amara Okafor",
    role: "Founder & Editor-in-Chief",
    location: "Lagos, Nigeria",
    bio: "Amara started the publication at sixteen after her school debate club ran out of time to discuss the news. She edits every issue and still writes about African regional politics.",
  },
  {
    name: "Lucas Moreau",
    role: "Head of Research",
    location: "Montréal, Canada",
    bio: "Lucas leads our fact-checking desk and trains new research assistants. He is fascinated by elections, electoral systems and how polls get things wrong.",
  },
  {
    name: "Priya Raman",
    role: "Design Director",
    location: "Singapore",
    bio: "Priya turns complex stories into clear visuals, from maps of shifting borders to infographics on climate finance. She art-directs the upcoming magazine.",
  },
  {
    name: "Sofía Hernández",
    role: "Education Lead",
    location: "Bogotá, Colombia",
    bio: "Sofía works with teachers to shape our educational packs and makes sure every pack is just as strong in Spanish as it is in English.",
  },
];
