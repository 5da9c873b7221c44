// Generated from openapi.json by scripts/gen-rules.mjs (npm run gen-api): do not edit.
// The field rules of each request body, as the server enforces them.
export const rules = {
  ContactInput: {
    first_name: {
      minLength: 1,
      maxLength: 100,
    },
    last_name: {
      minLength: 1,
      maxLength: 100,
    },
    email: {
      minLength: 3,
      maxLength: 254,
    },
    subject: {
      minLength: 1,
      maxLength: 200,
    },
    message: {
      minLength: 1,
      maxLength: 5000,
    },
  },
  IssuePublication: {
    title: {
      minLength: 1,
      maxLength: 200,
    },
    description: {
      minLength: 1,
      maxLength: 500,
    },
    cover_url: {
      minLength: 7,
      maxLength: 500,
    },
  },
  LinkRequest: {
    email: {
      minLength: 3,
      maxLength: 254,
    },
  },
  LoginRequest: {
    access_key: {
      minLength: 1,
      maxLength: 200,
    },
  },
  MagazineRename: {
    title: {
      minLength: 1,
      maxLength: 200,
    },
  },
  NewStaffMember: {
    name: {
      minLength: 1,
      maxLength: 100,
    },
  },
  NotifyInput: {
    email: {
      minLength: 3,
      maxLength: 254,
    },
  },
  PasswordChange: {
    password: {
      minLength: 6,
      maxLength: 128,
    },
    confirm_password: {
      minLength: 6,
      maxLength: 128,
    },
  },
  PasswordReset: {
    password: {
      minLength: 6,
      maxLength: 128,
    },
    confirm_password: {
      minLength: 6,
      maxLength: 128,
    },
  },
  ProfileChange: {
    bio: {
      maxLength: 600,
    },
  },
  ProfileInput: {
    first_name: {
      minLength: 1,
      maxLength: 100,
    },
    last_name: {
      minLength: 1,
      maxLength: 100,
    },
    country: {
      maxLength: 100,
    },
  },
  ReaderSignIn: {
    email: {
      minLength: 1,
      maxLength: 254,
    },
    password: {
      minLength: 1,
      maxLength: 1024,
    },
  },
  RegistrationInput: {
    first_name: {
      minLength: 1,
      maxLength: 100,
    },
    last_name: {
      minLength: 1,
      maxLength: 100,
    },
    email: {
      minLength: 3,
      maxLength: 254,
    },
    password: {
      minLength: 6,
      maxLength: 128,
    },
    confirm_password: {
      minLength: 6,
      maxLength: 128,
    },
    age: {
      minimum: 13,
      maximum: 25,
    },
    country: {
      maxLength: 100,
    },
  },
  Rejection: {
    reason: {
      maxLength: 500,
    },
  },
  ResponseInput: {
    body: {
      maxLength: 4000,
    },
  },
  StaffNotices: {
    email: {
      maxLength: 254,
    },
  },
  submitApplication: {
    full_name: {
      minLength: 1,
      maxLength: 200,
    },
    country: {
      minLength: 1,
      maxLength: 200,
    },
    email: {
      minLength: 3,
      maxLength: 254,
    },
    time_zone: {
      minLength: 1,
      maxLength: 200,
    },
    how_did_you_hear: {
      maxLength: 200,
    },
    previous_experience: {
      maxLength: 5000,
    },
    roles: {
      maxItems: 8,
    },
    portfolio: {
      maxLength: 2000,
    },
    writing_samples: {
      maxLength: 2000,
    },
    research_samples: {
      maxLength: 2000,
    },
    why_join: {
      minLength: 1,
      maxLength: 5000,
    },
    contribution: {
      minLength: 1,
      maxLength: 5000,
    },
    additional: {
      maxLength: 5000,
    },
  },
} as const;
